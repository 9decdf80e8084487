import { z } from 'zod';
import type { User } from '../db/schema.js';

/** The user as the console sees it (docs/api-contract.md, "The user"). */
export const userSchema = z.object({
  id: z.number(),
  firstname: z.string(),
  lastname: z.string(),
  name: z.string(),
  email: z.string(),
  email_verified_at: z.string().nullable(),
  aup_accepted_at: z.string().nullable(),
  admin: z.boolean(),
  enabled: z.boolean(),
  authority: z.string().nullable(),
  created_at: z.string(),
  // Filled in by the teams, workspaces and requests issues; empty until then.
  teams: z.array(z.unknown()),
  workspaces: z.array(z.unknown()),
  requests: z.array(z.unknown()),
});

export type PresentedUser = z.infer<typeof userSchema>;

export function presentUser(user: User): PresentedUser {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    name: `${user.firstname} ${user.lastname}`,
    email: user.email,
    email_verified_at: user.email_verified_at,
    aup_accepted_at: user.aup_accepted_at,
    admin: user.admin === 1,
    enabled: user.enabled === 1,
    authority: user.authority,
    created_at: user.created_at,
    teams: [],
    workspaces: [],
    requests: [],
  };
}
