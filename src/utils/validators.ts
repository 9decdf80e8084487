import { regex, required, type Validator } from 'react-admin';

/** Spec §5: non-space text, an @, then non-space text. */
export const EMAIL_PATTERN = /^\S+@\S+$/;
/** Spec §5: an http(s) address (team url; used by a later issue). */
export const URL_PATTERN = /^https?:\/\/[^\s/$.?#].[^\s]*$/i;
/** Spec §5 / design §5: workspace name. */
export const WORKSPACE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;

const requiredValidator = required();

/**
 * react-admin's required() ('Required' under the field), without its `isRequired` flag: the
 * label then stays exactly 'Password' instead of 'Password *', so labels are unambiguous for
 * assistive technology and for tests (getByLabel('Password', { exact: true })). Forms say
 * which fields are optional instead.
 */
export const mandatory: Validator = (value, values) => requiredValidator(value, values);

export const validateEmail = [mandatory, regex(EMAIL_PATTERN, 'app.validation.invalid_email')];
export const validateRequired = [mandatory];
export const validateUrl = [mandatory, regex(URL_PATTERN, 'app.validation.invalid_url')];
export const validateWorkspaceName = [mandatory, regex(WORKSPACE_NAME_PATTERN, 'app.validation.invalid_name')];
