import { z } from 'zod';
import { DAY_MS } from '../clock.js';
import { timestamp } from '../db/database.js';
import { fieldError } from '../http/errors.js';

// The end date of a team membership as people send it (memberships/ends.ts): on an invitation,
// on the approval of a join, or set later by the team's managers. Here, beside addTeamMember,
// so that the invitations and the requests' decisions check it the same way.

export const END_IN_PAST = 'The end date must be in the future.';
export const END_TOO_FAR = 'The end date must be within 10 years.';
const MAX_YEARS = 10;

/**
 * An end date as sent: an ISO 8601 date-time with its offset, or null for "no end". Whether it
 * lies in the future is decided against the app's clock by `checkEndDate`.
 */
export const endDateField = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `The ${field} field must be a date-time (ISO 8601, e.g. 2030-06-30T22:00:00Z).` })
    .nullable();

/** The end date normalised to UTC, or a 422 on `field` when it is not in the future (or absurdly far). */
export function checkEndDate(field: string, value: string | null | undefined, now: Date): string | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw fieldError(field, `The ${field} field must be a date-time (ISO 8601, e.g. 2030-06-30T22:00:00Z).`);
  if (at.getTime() <= now.getTime()) throw fieldError(field, END_IN_PAST);
  if (at.getTime() > now.getTime() + MAX_YEARS * 366 * DAY_MS) throw fieldError(field, END_TOO_FAR);
  return timestamp(at);
}

