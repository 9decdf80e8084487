// Spec §5 patterns (re-exported by validators.ts), in a module without react-admin so the
// logged-out screens' validation (src/pages/auth/validation.ts) carries none of it.

/** Spec §5: non-space text, an @, then non-space text. */
export const EMAIL_PATTERN = /^\S+@\S+$/;
/** Spec §5: an http(s) address (team url; used by a later issue). */
export const URL_PATTERN = /^https?:\/\/[^\s/$.?#].[^\s]*$/i;
/** Spec §5 / design §5: workspace name. */
export const WORKSPACE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;
