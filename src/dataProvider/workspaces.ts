import type { Identifier } from 'react-admin';
import type { HttpClient } from '../httpClient';
import type { KubeconfigAnswer, Pod } from '../resources/workspaces/types';
import { listItems } from './crud';
import { segment } from './files';

// A workspace's cluster side and members (docs/api-contract.md "Cluster"). The workspace itself
// is CRUD (resource 'workspaces': GET /api/subnamespaces/{id}).

export interface WorkspaceMethods {
  /** POST /api/subnamespaces/{id}/kubeconfig (members and platform admins; 409/503 while not ready). */
  createKubeconfig(id: Identifier): Promise<KubeconfigAnswer>;
  /** DELETE /api/subnamespaces/{id}/users/{userId}: a manager removes a member, or a member leaves. */
  removeWorkspaceMember(id: Identifier, userId: Identifier): Promise<void>;
  /** GET /api/pods?namespace={namespace} (members and platform admins; 503 when the cluster is down). */
  getPods(namespace: string, signal?: AbortSignal): Promise<Pod[]>;
}

export const workspaceMethods = (http: HttpClient): WorkspaceMethods => ({
  async createKubeconfig(id) {
    return (await http<KubeconfigAnswer>(`/api/subnamespaces/${segment(id)}/kubeconfig`, { method: 'POST' })).json;
  },
  async removeWorkspaceMember(id, userId) {
    await http(`/api/subnamespaces/${segment(id)}/users/${segment(userId)}`, { method: 'DELETE' });
  },
  async getPods(namespace, signal) {
    return listItems<Pod>((await http('/api/pods', { query: { namespace }, signal })).json);
  },
});
