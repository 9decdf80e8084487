import type { RateLimit, RateLimits } from '../config/config.js';
import { HttpError, minutesToWait } from '../http/errors.js';
import type { Reservation, Throttle } from '../http/throttle.js';

// How many invitation mails (sent and resent) a person may have the console send
// (docs/api-contract.md, "Rate limits"). A team's owners and managers share the team's daily
// budget, and each of them may spend only a share of it (INVITATIONS_PER_INVITER_PER_TEAM, in
// config.ts), so one of them cannot leave the others none. Platform admins neither spend nor
// are held by team budgets (an admin inviting on a team's behalf must not empty it), but they
// have a daily cap of their own across teams. Everyone also has the hourly cap across teams.
// Each refusal names the limit it hit.

export type InvitationBudgets = Pick<RateLimits, 'invitationTeam' | 'invitationTeamInviter' | 'invitationInviter' | 'invitationAdmin'>;

export interface InvitationLimits {
  throttle: Throttle;
  budgets: InvitationBudgets;
}

/** A window as hours, for the messages ("per 24 h"); two decimals at most. */
const hoursOf = (limit: RateLimit) => Number((limit.windowSeconds / 3600).toFixed(2));

// Each wording whole per wait (under a minute, one minute, minutes), so that the catalogue gives
// each its French.
export const teamBudgetSpent = (max: number, hours: number, seconds: number) => {
  const minutes = minutesToWait(seconds);
  return minutes === 0
    ? `This team may send ${max} invitations per ${hours} h and has reached that limit. Try again in less than a minute.`
    : minutes === 1
      ? `This team may send ${max} invitations per ${hours} h and has reached that limit. Try again in 1 minute.`
      : `This team may send ${max} invitations per ${hours} h and has reached that limit. Try again in ${minutes} minutes.`;
};
export const teamShareSpent = (max: number, hours: number, seconds: number) => {
  const minutes = minutesToWait(seconds);
  return minutes === 0
    ? `You may send ${max} invitations per ${hours} h for this team and have reached that limit. Try again in less than a minute.`
    : minutes === 1
      ? `You may send ${max} invitations per ${hours} h for this team and have reached that limit. Try again in 1 minute.`
      : `You may send ${max} invitations per ${hours} h for this team and have reached that limit. Try again in ${minutes} minutes.`;
};
export const inviterBudgetSpent = (max: number, hours: number, seconds: number) => {
  const minutes = minutesToWait(seconds);
  return minutes === 0
    ? `You may send ${max} invitations per ${hours} h, whatever the team, and have reached that limit. Try again in less than a minute.`
    : minutes === 1
      ? `You may send ${max} invitations per ${hours} h, whatever the team, and have reached that limit. Try again in 1 minute.`
      : `You may send ${max} invitations per ${hours} h, whatever the team, and have reached that limit. Try again in ${minutes} minutes.`;
};
export const adminBudgetSpent = (max: number, hours: number, seconds: number) => {
  const minutes = minutesToWait(seconds);
  return minutes === 0
    ? `As a platform admin you may send ${max} invitations per ${hours} h, whatever the team, and have reached that limit. Try again in less than a minute.`
    : minutes === 1
      ? `As a platform admin you may send ${max} invitations per ${hours} h, whatever the team, and have reached that limit. Try again in 1 minute.`
      : `As a platform admin you may send ${max} invitations per ${hours} h, whatever the team, and have reached that limit. Try again in ${minutes} minutes.`;
};

export type Budget = 'team' | 'share' | 'inviter' | 'admin';

export interface BudgetKey {
  key: string;
  limit: RateLimit;
  budget: Budget;
}

/** The 429 for a spent budget, naming it; Retry-After: the seconds until its window ends. */
export function budgetSpent(budget: Budget, limit: RateLimit, seconds: number): HttpError {
  const { max } = limit;
  const hours = hoursOf(limit);
  const headers = { 'Retry-After': String(seconds) };
  switch (budget) {
    case 'team':
      return new HttpError(429, teamBudgetSpent(max, hours, seconds), { headers });
    case 'share':
      return new HttpError(429, teamShareSpent(max, hours, seconds), { headers });
    case 'inviter':
      return new HttpError(429, inviterBudgetSpent(max, hours, seconds), { headers });
    case 'admin':
      return new HttpError(429, adminBudgetSpent(max, hours, seconds), { headers });
  }
}

/**
 * The counters one invitation mail reserves, the person's own first: a platform admin's are their
 * hourly and daily caps; anyone else's are their hourly cap, their share of the team's budget and
 * the team's budget.
 */
export function invitationBudgetKeys(budgets: InvitationBudgets, teamId: number, inviter: { id: number; admin: boolean }): BudgetKey[] {
  const own: BudgetKey = { key: `invitation-inviter:${inviter.id}`, limit: budgets.invitationInviter, budget: 'inviter' };
  if (inviter.admin) return [own, { key: `invitation-admin:${inviter.id}`, limit: budgets.invitationAdmin, budget: 'admin' }];
  return [
    own,
    { key: `invitation-team-inviter:${teamId}:${inviter.id}`, limit: budgets.invitationTeamInviter, budget: 'share' },
    { key: `invitation-team:${teamId}`, limit: budgets.invitationTeam, budget: 'team' },
  ];
}

/**
 * Reserves one mail under each key, in order. When one refuses, the ones already reserved are
 * given back and the 429 naming that limit is thrown.
 */
export async function reserveInvitationMail(throttle: Throttle, keys: readonly BudgetKey[]): Promise<Reservation[]> {
  const granted: Reservation[] = [];
  for (const { key, limit, budget } of keys) {
    const result = await throttle.reserve(key, limit);
    if (!result.allowed) {
      for (const reservation of granted) await throttle.release(reservation);
      throw budgetSpent(budget, limit, result.retryAfterSeconds);
    }
    granted.push(result.reservation);
  }
  return granted;
}
