// The product's validation patterns (re-exported by validators.ts), in a module without react-admin so the
// logged-out screens' validation (src/pages/auth/validation.ts) carries none of it.

/** Email: non-space text, an @, then non-space text. */
export const EMAIL_PATTERN = /^\S+@\S+$/;
/** An http(s) address (a new team's url). */
export const URL_PATTERN = /^https?:\/\/[^\s/$.?#].[^\s]*$/i;
/** Workspace name: lowercase letters, digits and dashes, at least 2, no dash at either end. */
export const WORKSPACE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;
