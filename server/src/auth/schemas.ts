import { z } from 'zod';
import {
  confirmationMismatch,
  currentPasswordField,
  emailField,
  passwordsMatch,
  passwordWithConfirmation,
  requiredText,
} from '../http/schemas.js';
import { strongPassword } from './passwordStrength.js';

export const registerBody = z
  .object({
    firstname: requiredText('firstname'),
    lastname: requiredText('lastname'),
    email: emailField(),
    ...passwordWithConfirmation,
    // The mailed invitation's link, when registering from it: the invitation lets the
    // registration past the per-address limit (auth/routes.ts). A malformed one is as none.
    invitation: z.object({ id: z.string(), token: z.string() }).optional().catch(undefined),
  })
  .check(strongPassword())
  .refine(passwordsMatch, confirmationMismatch);

export const loginBody = z.object({
  email: emailField(),
  password: currentPasswordField(),
});

export const passwordLinkBody = z.object({ email: emailField() });

export const passwordResetBody = z.object(passwordWithConfirmation).refine(passwordsMatch, confirmationMismatch);

// Link parts stay plain strings here: a malformed link is a 403 from the rule functions,
// like any other invalid link, rather than a validation error. (A repeated query parameter
// arrives as an array; `catch` turns it into a missing one.)
const linkPart = () => z.string().optional().catch(undefined);
export const verificationLinkParams = z.object({ id: z.string(), hash: z.string() });
export const verificationLinkQuery = z.object({ expires: linkPart(), signature: linkPart() });
export const passwordResetParams = z.object({ id: z.string(), signature: z.string() });
