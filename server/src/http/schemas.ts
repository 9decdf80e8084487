import { z } from 'zod';

// Building blocks for request and response schemas. Request fields carry Laravel-style
// messages ("The firstname field is required."), keyed by the field name as sent, because
// the console shows them under the matching form fields.

/** The longest name, label or other short text field. */
export const MAX_TEXT_LENGTH = 255;
/** Passwords longer than this are refused before hashing (hashing cost grows with length). */
export const MAX_PASSWORD_LENGTH = 1024;

const NUL = /\u0000/;
/**
 * Unicode category Cc: the C0 controls (NUL, TAB, LF, CR, ESC…), DEL and the C1 controls
 * (NEL…). A name carrying a line break can forge lines wherever it is printed: mails written
 * to the log, the log itself, mail headers, terminals. Only text that is multi-line by nature
 * (a request's reason, a description, notes) may hold line breaks.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;

export const controlCharacterMessage = (field: string) =>
  `The ${field} field must not contain line breaks or other control characters.`;

/** True when the text holds no control character (see CONTROL_CHARACTER). */
export const isSingleLine = (value: string) => !CONTROL_CHARACTER.test(value);

const stringOf = (field: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? `The ${field} field is required.`
        : `The ${field} field must be a string.`,
  });

/**
 * A name-like text field (names, labels, email, token and host names…): trimmed, at most
 * `max` characters, on one line: no control characters at all (see CONTROL_CHARACTER).
 * Empty is allowed here (an optional field that may be '' is `optionalLineText`).
 */
export const lineText = (field: string, max = MAX_TEXT_LENGTH) =>
  stringOf(field)
    .trim()
    .max(max, `The ${field} field must not be greater than ${max} characters.`)
    .refine(isSingleLine, controlCharacterMessage(field));

/** A required name-like field: as lineText, and not empty. */
export const requiredText = (field: string, max = MAX_TEXT_LENGTH) =>
  stringOf(field)
    .trim()
    .min(1, { message: `The ${field} field is required.`, abort: true })
    .max(max, `The ${field} field must not be greater than ${max} characters.`)
    .refine(isSingleLine, controlCharacterMessage(field));

/**
 * A required free text that may span lines (a request's reason): trimmed, not empty, at most
 * `max` characters, no NUL characters.
 */
export const requiredMultilineText = (field: string, max = 2000) =>
  stringOf(field)
    .trim()
    .min(1, { message: `The ${field} field is required.`, abort: true })
    .max(max, `The ${field} field must not be greater than ${max} characters.`)
    // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
    .refine((value) => !NUL.test(value), `The ${field} field contains an invalid character.`);

/** The product's email rule (non-space, @, non-space), stored trimmed and lowercased. */
export const emailField = () =>
  requiredText('email')
    .regex(/^\S+@\S+$/, 'Invalid email')
    .toLowerCase();

/** NIST 800-63B's minimum length for a password the person chooses (no composition rules). */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * A password being chosen: at least 8 characters. Whitespace is kept as typed. Its strength
 * depends on the person too: see strongPassword.
 */
export const newPasswordField = () =>
  stringOf('password')
    .min(MIN_PASSWORD_LENGTH, `The password field must be at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(MAX_PASSWORD_LENGTH, `The password field must not be greater than ${MAX_PASSWORD_LENGTH} characters.`);

/** A password being checked (login): any non-empty string. */
export const currentPasswordField = () =>
  stringOf('password')
    .min(1, 'The password field is required.')
    .max(MAX_PASSWORD_LENGTH, `The password field must not be greater than ${MAX_PASSWORD_LENGTH} characters.`);

/** `password` and `password_confirmation`, for bodies where a password is chosen. */
export const passwordWithConfirmation = {
  password: newPasswordField(),
  password_confirmation: stringOf('password_confirmation').optional(),
};

/** Refinement for bodies with passwordWithConfirmation: `.refine(passwordsMatch, confirmationMismatch)`. */
export const passwordsMatch = (body: { password: string; password_confirmation?: string }) =>
  body.password === body.password_confirmation;

/**
 * The mismatch is reported on `password`, as Laravel's `confirmed` rule does, and checked
 * even when the password also breaks another rule, so both messages show at once.
 */
export const confirmationMismatch = {
  path: ['password'],
  message: 'The password confirmation does not match.',
  when: (payload: z.core.ParsePayload) => typeof (payload.value as { password?: unknown } | undefined)?.password === 'string',
};

export const messageSchema = z.object({ message: z.string() });

/** For the OpenAPI document: routes that need `Authorization: Bearer <token>`. */
export const bearerAuth = [{ bearerAuth: [] }];

/** An optional name-like field (a city, a host name): as lineText; empty or null = absent (null). */
export const optionalLineText = (field: string, max = MAX_TEXT_LENGTH) =>
  lineText(field, max)
    .nullish()
    .transform((value) => (value ? value : null));

/**
 * An optional free text field that may span lines (a message to the decider, a description,
 * notes); empty = absent. Line breaks are its nature; NUL is refused (PostgreSQL).
 */
export const optionalText = (field: string, max = 2000) =>
  stringOf(field)
    .trim()
    .max(max, `The ${field} field must not be greater than ${max} characters.`)
    .refine((value) => !NUL.test(value), `The ${field} field contains an invalid character.`)
    .nullish()
    .transform((value) => (value ? value : null));

/** The largest id a column holds on both databases (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/**
 * A reference to a record by id, as a number or a string of digits (form selects send
 * strings). Anything else is a 422 on the field, never a database error.
 */
export const idField = (field: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : value),
    z
      .number({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? `The ${field} field is required.` : `The ${field} field must be an integer.`,
      })
      .int(`The ${field} field must be an integer.`)
      .min(1, `The selected ${field} is invalid.`)
      .max(MAX_ID, `The selected ${field} is invalid.`),
  );

/** A numeric id in a path: anything else names nothing (the error handler answers 404). */
export const idParam = () => z.string().regex(/^\d{1,9}$/).transform(Number);
