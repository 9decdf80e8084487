import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { FieldErrors } from '../http/errors.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../http/schemas.js';
import { EMAIL_TAKEN, findUserByEmail } from '../users/users.js';
import { personalWords, weakPasswordMessage } from './passwordStrength.js';
import { registerBody } from './schemas.js';

export const CONFIRMATION_MISMATCH = 'The password confirmation does not match.';

/**
 * Every field's errors of a refused registration in one answer (the form shows them all): the schema stops at
 * a field's first failure, and its body-wide checks (strength, confirmation) and the database's
 * (email taken) do not run when another field failed, so a person fixed one field to meet the
 * next message. Here each field is judged alone with the schema's own rules, then:
 * - the password's strength when its length is acceptable (with the person's names and email);
 * - the confirmation mismatch whenever a password was sent, under `password` as Laravel's
 *   `confirmed` rule puts it and under `password_confirmation`, the field a form shows it on;
 * - "The email has already been taken." when the email is otherwise valid.
 * Each field's messages keep that order, once each; fields in the form's order. Empty when
 * nothing is wrong.
 */
export async function registrationErrors(db: Kysely<Database>, body: Record<string, unknown>): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const messages = (errors[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  };

  const parsed: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(registerBody.shape)) {
    const result = schema.safeParse(body[field]);
    if (result.success) parsed[field] = result.data;
    else for (const issue of result.error.issues) add([field, ...issue.path].join('.'), issue.message);
  }

  const password = body.password;
  if (typeof password === 'string' && password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH) {
    const weak = weakPasswordMessage(password, personalWords(body));
    if (weak) add('password', weak);
  }
  if (typeof password === 'string' && password !== body.password_confirmation) {
    add('password', CONFIRMATION_MISMATCH);
    add('password_confirmation', CONFIRMATION_MISMATCH);
  }

  if (typeof parsed.email === 'string' && (await findUserByEmail(db, parsed.email))) add('email', EMAIL_TAKEN);

  // In the form's order, so that `message` (the first one) is the form's first wrong field.
  const order = Object.keys(registerBody.shape);
  const rank = (field: string) => (order.includes(field.split('.')[0]) ? order.indexOf(field.split('.')[0]) : order.length);
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b)));
}
