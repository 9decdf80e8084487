import type { HttpClient } from '../httpClient';
import type { LinkedIdentity } from '../types';
import { segment } from './files';

// The signed-in user's institutional identities (docs/api-contract.md "Institutional sign-in").
// Identity itself (GET /user, profile, policy) is the auth provider's.

export interface ProfileMethods {
  /** GET /api/identities: the identities linked to the signed-in account. */
  getLinkedIdentities(): Promise<LinkedIdentity[]>;
  /** POST /api/identities {provider, password}: where to send the browser to link one. */
  startIdentityLink(provider: string, password: string): Promise<{ url: string }>;
  /** DELETE /api/identities/{id}. */
  unlinkIdentity(id: number): Promise<void>;
}

export const profileMethods = (http: HttpClient): ProfileMethods => ({
  async getLinkedIdentities() {
    return (await http<LinkedIdentity[]>('/api/identities')).json;
  },
  async startIdentityLink(provider, password) {
    return (await http<{ url: string }>('/api/identities', { method: 'POST', body: { provider, password } })).json;
  },
  async unlinkIdentity(id) {
    await http(`/api/identities/${segment(id)}`, { method: 'DELETE' });
  },
});
