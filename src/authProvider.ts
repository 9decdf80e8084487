import { type AuthProvider, HttpError, type UserIdentity } from 'react-admin';
import { permissionsOf } from './authQueries';
import { type HttpClient, tokenStore } from './httpClient';
import type { PolicyInForce, User } from './types';
import { avatarImageUrl } from './utils/avatar';

/** Onboarding steps: 0 = email not verified, 1 = policy not accepted, 2 = fully set up. */
export type OnboardingStep = 0 | 1 | 2;

export const onboardingStep = (user: Pick<User, 'email_verified_at' | 'aup_accepted_at' | 'aup_required'>): OnboardingStep => {
  if (!user.email_verified_at) return 0;
  // A new version of the policy, or an acceptance grown too old, sends people back to the step.
  if (!user.aup_accepted_at || user.aup_required) return 1;
  return 2;
};

export type SessionState =
  | { status: 'anonymous' }
  | { status: 'loading' }
  /** A token is stored but the server could not be reached to load its user: kept, retried. */
  | { status: 'unreachable' }
  | { status: 'authenticated'; user: User; step: OnboardingStep };

export interface Credentials {
  email: string;
  password: string;
}

export interface Registration {
  firstname: string;
  lastname: string;
  email: string;
  password: string;
  password_confirmation: string;
  /** The mailed invitation registered from: the server does not hold it to the per-address registration limit. */
  invitation?: { id: string; token: string };
}

export interface MessageAnswer {
  message: string;
  [key: string]: unknown;
}

/** An institution one can sign in with (OpenID Connect), as GET /api/settings lists them. */
export interface SignInProvider {
  id: string;
  name: string;
}

/** What a mailed invitation link offers (GET /api/invitations/{id}/{token}). */
export interface InvitationPreview {
  id: number;
  email: string;
  role: string;
  team: { id: number; name: string; fullname: string };
  workspaces: { id: number; name: string; label: string }[];
  invited_by: string | null;
}

/** The answer of joining through an invitation link: the team joined. */
export interface JoinedTeam {
  message?: string;
  team: { id: number };
}

/**
 * react-admin's AuthProvider for the Laravel-style API, plus the session store that the
 * console's gate subscribes to (login, logout, verification and policy acceptance re-render it
 * without a page reload), plus the account calls of the logged-out area and onboarding.
 */
export interface TestbedAuthProvider extends AuthProvider {
  login(params: Credentials): Promise<void>;
  logout(params?: { redirectTo?: string }): Promise<string | false>;

  /** The current session; a stable object until the session changes (useSyncExternalStore). */
  getSession(): SessionState;
  subscribe(listener: () => void): () => void;
  /**
   * (Re)loads the user from GET /user. A refusal by the server clears the token (the product's session rule); a
   * request that never got an answer (network down, or cut short by a page reload) keeps it.
   */
  loadUser(): Promise<User | null>;
  /**
   * Reloads the user of a running session (after verification, on focus in the wizard). Only
   * a 401 ends the session (the HTTP client clears the token); other failures keep the user.
   */
  refreshUser(): Promise<User | null>;
  /** Replaces the user after a call that returned it (PATCH /user, POST /aup/accept). */
  setUser(user: User): void;

  register(data: Registration): Promise<MessageAnswer>;
  sendVerificationEmail(): Promise<MessageAnswer>;
  verifyEmail(id: string, hash: string, search: string): Promise<MessageAnswer>;
  requestPasswordReset(email: string): Promise<MessageAnswer>;
  resetPassword(id: string, signature: string, data: { password: string; password_confirmation: string }): Promise<MessageAnswer>;
  acceptPolicy(): Promise<User>;
  /** GET /api/policy: the policy in force, which the onboarding step shows. */
  currentPolicy(): Promise<PolicyInForce>;
  /** PATCH /user: the names (profile form), the language (locale), or both. */
  updateProfile(data: { firstname?: string; lastname?: string; locale?: 'en' | 'fr' }): Promise<User>;

  // The calls of two screens that handle a token apart from the stored session: the institutional
  // sign-in's return (/oidc/callback) and the mailed invitation link (/invitations/{id}/{token}).
  // They sit here, not in the data provider, because the logged-out bundle shows these screens
  // too, and it has react-admin's auth context but no data provider. None of them stores a token
  // or sends the stored one unless told to; a refusal never ends the stored session.

  /** The institutions one can sign in with (GET /api/settings), or null when the server names none. */
  signInProviders(signal?: AbortSignal): Promise<SignInProvider[] | null>;
  /**
   * POST /auth/oidc/exchange: a sign-in's one-time code for its session token, not stored (the
   * callback page first checks whose it is). Opens only with the sign-in cookie of the browser
   * that started the sign-in. Rejects with the server's refusal, or 'oidc.callback_failed'.
   */
  exchangeSignInCode(code: string, signal?: AbortSignal): Promise<string>;
  /** POST /login: a session token for these credentials, not stored (the invitation page joins with it first). */
  createToken(credentials: Credentials): Promise<string>;
  /**
   * GET /user with `token`: its user, or null when the server refuses the token. Rejects when
   * no answer came (network, abort).
   */
  userOf(token: string, signal?: AbortSignal): Promise<User | null>;
  /** POST /logout with `token`: ends that session, whatever the server answers. */
  endSession(token: string): Promise<void>;
  /** GET /api/invitations/{id}/{secret}: what the link offers, or the server's reason it cannot be used. */
  invitation(id: string, secret: string): Promise<InvitationPreview>;
  /** POST /api/invitations/{id}/{secret}/accept with `token`: joins its account to the team. */
  acceptInvitation(id: string, secret: string, token: string): Promise<JoinedTeam>;
}

export const fullName = (user: Pick<User, 'firstname' | 'lastname' | 'name'>): string =>
  user.name?.trim() || [user.firstname, user.lastname].filter(Boolean).join(' ');

const isAdminResource = (resource: string | undefined): boolean => !!resource && /^admin([./]|$)/.test(resource);

const invitationPath = (id: string, secret: string) => `/api/invitations/${encodeURIComponent(id)}/${encodeURIComponent(secret)}`;

export const createAuthProvider = (http: HttpClient, options: { avatarUrl?: string | null } = {}): TestbedAuthProvider => {
  let user: User | null = null;
  let snapshot: SessionState = { status: 'anonymous' };
  let inFlight: { token: string; promise: Promise<User | null> } | null = null;
  let unreachable = false;
  const listeners = new Set<() => void>();

  const computeSnapshot = (): SessionState => {
    const token = tokenStore.get();
    if (!token) return { status: 'anonymous' };
    if (!user) return unreachable ? { status: 'unreachable' } : { status: 'loading' };
    return { status: 'authenticated', user, step: onboardingStep(user) };
  };

  const notify = () => {
    const next = computeSnapshot();
    const same =
      next.status === snapshot.status &&
      (next.status !== 'authenticated' || (snapshot.status === 'authenticated' && snapshot.user === next.user));
    if (!same) snapshot = next;
    listeners.forEach((listener) => listener());
  };

  snapshot = computeSnapshot();

  tokenStore.subscribe((token) => {
    if (!token) user = null;
    notify();
  });

  const loadUser = (): Promise<User | null> => {
    const token = tokenStore.get();
    if (!token) {
      user = null;
      notify();
      return Promise.resolve(null);
    }
    if (inFlight && inFlight.token === token) return inFlight.promise;
    if (unreachable) {
      unreachable = false;
      notify();
    }
    const promise = http<User>('/user')
      .then(({ json }) => {
        if (tokenStore.get() !== token) return null; // logged out or switched meanwhile
        user = json;
        notify();
        return json;
      })
      .catch((error) => {
        if (tokenStore.get() === token) {
          user = null;
          // Only the server's answer refusing the user ends the session. No answer (status 0),
          // or one cut short (an abort: a reload while the body was still arriving, whose
          // handler still runs in the page being left) is not a refusal: logging the person
          // out for it would punish a reload or a flaky network. The gate says the server is
          // unreachable and retries instead.
          const refused = typeof error?.status === 'number' && error.status > 0;
          if (refused) tokenStore.clear();
          else unreachable = true;
        }
        notify();
        return null;
      })
      .finally(() => {
        if (inFlight?.promise === promise) inFlight = null;
      });
    inFlight = { token, promise };
    return promise;
  };

  const refreshUser = async (): Promise<User | null> => {
    const token = tokenStore.get();
    if (!token) return null;
    if (!user) return loadUser();
    try {
      const { json } = await http<User>('/user');
      if (tokenStore.get() !== token) return null;
      user = json;
      notify();
      return json;
    } catch {
      return user;
    }
  };

  const currentUser = async (): Promise<User | null> => user ?? (await loadUser());

  const provider: TestbedAuthProvider = {
    async login({ email, password }) {
      const { json } = await http<{ token: string }>('/login', { method: 'POST', body: { email, password } });
      if (!json?.token) throw new Error('app.error.no_token');
      // Load the user with the new token before storing it: the session switches in one step
      // from logged out to loaded, and a failure leaves nothing behind.
      const { json: loaded } = await http<User>('/user', { headers: { Authorization: `Bearer ${json.token}` } });
      user = loaded;
      tokenStore.set(json.token);
    },

    async logout(params) {
      if (tokenStore.get()) {
        try {
          await http('/logout', { method: 'POST' });
        } catch {
          // The token is forgotten here whatever the server says.
        }
      }
      user = null;
      tokenStore.clear();
      notify();
      // No redirect by default: a session that ends keeps the URL, and the login page shows there.
      return params?.redirectTo ?? false;
    },

    async checkAuth() {
      if (!tokenStore.get()) throw { message: false };
    },

    async checkError(error) {
      const status = error?.status;
      if (status === 401) {
        tokenStore.clear();
        throw { message: false };
      }
      if (status === 403 && error?.body?.onboarding) {
        // The account is not (or no longer) fully set up: reload it so the wizard shows.
        void refreshUser();
        throw { logoutUser: false, message: false };
      }
    },

    async getIdentity(): Promise<UserIdentity> {
      const current = await currentUser();
      if (!current) throw new Error('app.error.user_load');
      return {
        id: current.id,
        fullName: fullName(current),
        // Without an avatar service, none: the app bar shows its person icon, nothing is asked of a third party.
        avatar: await avatarImageUrl(options.avatarUrl, current.email),
        email: current.email,
      };
    },

    async getPermissions() {
      const current = await currentUser();
      return current ? permissionsOf(current) : { admin: false };
    },

    async canAccess({ resource }) {
      if (!isAdminResource(resource)) return true;
      const current = await currentUser();
      return !!current?.admin;
    },

    getSession: () => snapshot,

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    loadUser,
    refreshUser,

    setUser(next) {
      if (!tokenStore.get()) return;
      user = next;
      notify();
    },

    async register(data) {
      // No session goes with it: the invitation page may register while another account's
      // token is stored.
      return (await http<MessageAnswer>('/register', { method: 'POST', body: data, token: null })).json;
    },

    async sendVerificationEmail() {
      return (await http<MessageAnswer>('/email/verification', { method: 'POST' })).json;
    },

    async verifyEmail(id, hash, search) {
      const query = search && !search.startsWith('?') ? `?${search}` : search;
      const path = `/api/email/verify/${encodeURIComponent(id)}/${encodeURIComponent(hash)}${query ?? ''}`;
      return (await http<MessageAnswer>(path)).json;
    },

    async requestPasswordReset(email) {
      return (await http<MessageAnswer>('/password/link', { method: 'POST', body: { email } })).json;
    },

    async resetPassword(id, signature, data) {
      const path = `/password/reset/${encodeURIComponent(id)}/${encodeURIComponent(signature)}`;
      return (await http<MessageAnswer>(path, { method: 'POST', body: data })).json;
    },

    async acceptPolicy() {
      const { json } = await http<User>('/aup/accept', { method: 'POST' });
      if (json && typeof json === 'object' && 'id' in json) provider.setUser(json);
      else await refreshUser();
      return user as User;
    },

    async currentPolicy() {
      return (await http<PolicyInForce>('/api/policy')).json;
    },

    async updateProfile(data) {
      const { json } = await http<User>('/user', { method: 'PATCH', body: data });
      if (json && typeof json === 'object' && 'id' in json) provider.setUser(json);
      else await refreshUser();
      return user as User;
    },

    async signInProviders(signal) {
      const { json } = await http<{ oidcProviders?: SignInProvider[] }>('/api/settings', { token: null, signal });
      return Array.isArray(json?.oidcProviders) ? json.oidcProviders : null;
    },

    async exchangeSignInCode(code, signal) {
      // fetch's 'same-origin' sends the sign-in cookie; named so that no default takes it away.
      const { json } = await http<{ token?: string }>('/auth/oidc/exchange', {
        method: 'POST',
        body: { code },
        token: null,
        credentials: 'same-origin',
        signal,
      });
      if (!json?.token) throw new Error('oidc.callback_failed');
      return json.token;
    },

    async createToken({ email, password }) {
      const { json } = await http<{ token?: string }>('/login', { method: 'POST', body: { email, password }, token: null });
      if (!json?.token) throw new Error('app.error.no_token');
      return json.token;
    },

    async userOf(token, signal) {
      try {
        return (await http<User>('/user', { token, signal })).json;
      } catch (error) {
        // An answer refusing the token says "nobody"; no answer at all is not an answer.
        if (error instanceof HttpError && error.status > 0) return null;
        throw error;
      }
    },

    async endSession(token) {
      try {
        await http('/logout', { method: 'POST', token });
      } catch {
        // Nothing to do about a session the server would not end: the token is dropped anyway.
      }
    },

    async invitation(id, secret) {
      return (await http<InvitationPreview>(invitationPath(id, secret), { token: null })).json;
    },

    async acceptInvitation(id, secret, token) {
      return (await http<JoinedTeam>(`${invitationPath(id, secret)}/accept`, { method: 'POST', token })).json;
    },
  };

  return provider;
};
