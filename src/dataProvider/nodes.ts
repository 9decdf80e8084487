import type { Identifier } from 'react-admin';
import type { HttpClient } from '../httpClient';
import type { NodeActivityEntry, NodeRecord } from '../resources/nodes/types';
import type { DownloadedFile } from '../types';
import { listItems } from './crud';
import { fetchFile, segment } from './files';

// The user's nodes beyond CRUD (docs/nodes-contract.md): the activity and the USB image. The
// nodes themselves are CRUD (resource 'nodes': GET/POST /api/nodes[/{id}]).

export interface NodeMethods {
  /** GET /api/nodes/{id}/activity (owner and platform admins), newest first. */
  getNodeActivity(id: Identifier, signal?: AbortSignal): Promise<NodeActivityEntry[]>;
  /** GET the node's image_url (else /api/nodes/{id}/image): its cloud-init seed image. */
  downloadNodeImage(node: Pick<NodeRecord, 'id' | 'image_url'>): Promise<DownloadedFile>;
  /** PATCH /api/nodes/{id} {team_id}: the team the owner's node counts for (contributor credit); null: none. */
  setNodeTeam(id: Identifier, teamId: number | null): Promise<NodeRecord>;
}

export const nodeMethods = (http: HttpClient): NodeMethods => ({
  async getNodeActivity(id, signal) {
    return listItems<NodeActivityEntry>((await http(`/api/nodes/${segment(id)}/activity`, { signal })).json);
  },
  async downloadNodeImage(node) {
    return fetchFile(http, node.image_url || `/api/nodes/${segment(node.id)}/image`, { accept: 'application/octet-stream' });
  },
  async setNodeTeam(id, teamId) {
    return (await http<NodeRecord>(`/api/nodes/${segment(id)}`, { method: 'PATCH', body: { team_id: teamId } })).json;
  },
});
