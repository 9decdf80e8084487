import type { Token, User } from '../../src/types';

export const NOW = '2026-11-22T10:15:00.000Z';

/** A fully onboarded user, as GET /user returns it. */
export const makeUser = (overrides: Partial<User> = {}): User => ({
  id: 1,
  firstname: 'Ada',
  lastname: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  email_verified_at: NOW,
  aup_accepted_at: NOW,
  admin: false,
  enabled: true,
  authority: null,
  created_at: NOW,
  teams: [],
  workspaces: [],
  requests: [],
  ...overrides,
});

export const unverifiedUser = (overrides: Partial<User> = {}) =>
  makeUser({ email_verified_at: null, aup_accepted_at: null, ...overrides });

export const verifiedWithoutPolicy = (overrides: Partial<User> = {}) => makeUser({ aup_accepted_at: null, ...overrides });

export const makeToken = (overrides: Partial<Token> = {}): Token => ({
  id: 7,
  name: 'laptop',
  abilities: ['*'],
  created_at: '2026-11-20T08:05:00.000Z',
  expires_at: null,
  last_used_at: null,
  ...overrides,
});

export const PASSWORD = 'correct horse battery staple';
export const SESSION_TOKEN = '1|session-secret';
