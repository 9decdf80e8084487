import type { Validator } from 'react-admin';
import { EMAIL_PATTERN } from '../../utils/patterns';

// The logged-out forms' validators: the same results as react-admin's required() and regex()
// (src/utils/validators.ts), without ra-core's validation module (lodash) in the logged-out
// bundle.

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** 'Required' under the field (react-admin's required(), without its label asterisk). */
export const mandatory: Validator = (value) => (isEmpty(value) ? 'ra.validation.required' : undefined);

const matches =
  (pattern: RegExp, message: string): Validator =>
  (value) =>
    !isEmpty(value) && typeof value === 'string' && !pattern.test(value) ? { message, args: { pattern } } : undefined;

export const validateEmail = [mandatory, matches(EMAIL_PATTERN, 'app.validation.invalid_email')];
export const validateRequired = [mandatory];
