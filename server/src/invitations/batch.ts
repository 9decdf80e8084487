import type { Kysely } from 'kysely';
import type { AppContext } from '../context.js';
import type { Database, Invitation, User } from '../db/schema.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { HttpError } from '../http/errors.js';
import { emailField } from '../http/schemas.js';
import { isLocale, type Locale } from '../i18n/messages.js';
import type { Access } from '../access/access.js';
import { invitationBudgetKeys, reserveInvitationMail } from './budget.js';
import {
  ALREADY_INVITED,
  ALREADY_MEMBER,
  type InvitationInput,
  type InvitationLimits,
  insertInvitation,
  invitationTerms,
  invitedAddresses,
  memberAddresses,
} from './invitations.js';

// Many addresses in one call (docs/api-contract.md, "Invitations"): a class invited until the
// end of term. What all the invitations share (the team, the role, the workspaces, the end of
// the membership) is checked first, and a refusal there refuses the whole call with nothing
// sent. Then each address gets its own outcome: invited, already a member, already invited,
// not an address, or over a budget. Every mail counts against the same budgets as one
// invitation does (budget.ts), in the order given: once one is spent, the remaining addresses
// are not invited, and their outcome says which budget and when to try again. The invitations
// made are one transaction, with their mails in the outbox.

export const MAX_BATCH_ADDRESSES = 200;

export type BatchStatus = 'created' | 'already_member' | 'already_invited' | 'invalid' | 'limited';

export interface BatchOutcome {
  /** The address as it will be stored (trimmed, lowercased), or as sent when it is not one. */
  email: string;
  status: BatchStatus;
  /** Why it was not invited (null when it was). */
  message: string | null;
  invitation: Invitation | null;
}

export interface BatchInput extends Omit<InvitationInput, 'email'> {
  emails: string[];
}

const email = emailField();

/** Each address checked by the rule of the one-address call; repeated addresses count once. */
function readAddresses(emails: string[]): { email: string; valid: boolean; message: string | null }[] {
  const seen = new Set<string>();
  const read: { email: string; valid: boolean; message: string | null }[] = [];
  for (const sent of emails) {
    const parsed = email.safeParse(sent);
    const address = parsed.success ? parsed.data : sent.trim();
    if (seen.has(address)) continue;
    seen.add(address);
    read.push(parsed.success ? { email: address, valid: true, message: null } : { email: address, valid: false, message: parsed.error.issues[0]!.message });
  }
  return read;
}

/** The saved language of each address that has an account. */
async function savedLocales(db: Kysely<Database>, emails: string[]): Promise<Map<string, Locale>> {
  if (emails.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['email', 'locale']).where('email', 'in', emails).execute();
  return new Map(rows.filter((row) => isLocale(row.locale)).map((row) => [row.email, row.locale as Locale]));
}

/** POST /api/tenants/{id}/invitations with `emails`: one outcome per distinct address, in the order given. */
export async function createInvitations(
  context: AppContext,
  limits: InvitationLimits | null,
  input: { access: Access; inviter: User; teamId: number; batch: BatchInput; requestLocale?: Locale },
  now = context.clock.now(),
): Promise<{ outcomes: BatchOutcome[]; retryAfter: number | null }> {
  const { db } = context;
  const { access, inviter, batch } = input;
  const terms = await invitationTerms(db, access, input.teamId, batch, now);
  const addresses = readAddresses(batch.emails);
  const valid = addresses.filter((address) => address.valid).map((address) => address.email);
  const [members, invited] = await Promise.all([memberAddresses(db, terms.team.id, valid), invitedAddresses(db, terms.team.id, valid, now)]);

  const outcomes: BatchOutcome[] = addresses.map((address) => {
    if (!address.valid) return { email: address.email, status: 'invalid', message: address.message, invitation: null };
    if (members.has(address.email)) return { email: address.email, status: 'already_member', message: ALREADY_MEMBER, invitation: null };
    if (invited.has(address.email)) return { email: address.email, status: 'already_invited', message: ALREADY_INVITED, invitation: null };
    return { email: address.email, status: 'created', message: null, invitation: null };
  });

  // One mail reserved per address, in order, until a budget is spent: the rest are not sent.
  const toInvite = outcomes.filter((outcome) => outcome.status === 'created');
  let retryAfter: number | null = null;
  if (limits) {
    const keys = invitationBudgetKeys(limits.budgets, terms.team.id, { id: inviter.id, admin: access.admin });
    let spent: string | null = null;
    for (const outcome of toInvite) {
      if (spent === null) {
        try {
          await reserveInvitationMail(limits.throttle, keys);
          continue;
        } catch (error) {
          if (!(error instanceof HttpError) || error.status !== 429) throw error;
          spent = error.message;
          retryAfter = Number(error.headers?.['Retry-After']) || null;
        }
      }
      outcome.status = 'limited';
      outcome.message = spent;
    }
  }

  const sending = toInvite.filter((outcome) => outcome.status === 'created');
  if (sending.length > 0) {
    const locales = batch.locale ? new Map<string, Locale>() : await savedLocales(db, sending.map((outcome) => outcome.email));
    const labels =
      terms.workspaceIds.length === 0
        ? []
        : (await db.selectFrom('workspaces').select('label').where('id', 'in', terms.workspaceIds).orderBy('label').execute()).map((row) => row.label);
    await db.transaction().execute(async (trx) => {
      for (const outcome of sending) {
        const locale = batch.locale ?? locales.get(outcome.email) ?? input.requestLocale ?? 'en';
        outcome.invitation = await insertInvitation(trx, context, { terms, email: outcome.email, inviter, locale, workspaces: labels, now });
      }
    });
    applyAfterCommit(context, { mail: true });
  }
  return { outcomes, retryAfter };
}
