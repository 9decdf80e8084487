import { regex, required, type Validator } from 'react-admin';

import { EMAIL_PATTERN, URL_PATTERN, WORKSPACE_NAME_PATTERN } from './patterns';

export { EMAIL_PATTERN, URL_PATTERN, WORKSPACE_NAME_PATTERN };

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
