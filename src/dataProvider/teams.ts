import type { HttpClient } from '../httpClient';
import type {
  BulkRemoval,
  Invitation,
  InvitationBatchAnswer,
  InvitationBatchRequest,
  InvitationRequest,
  TeamMemberRole,
} from '../resources/teams/types';
import { segment } from './files';

// A team's members and invitations (docs/api-contract.md "Admin: teams and team members",
// "Invitations"), for its owners and managers and platform admins. The team itself is CRUD
// (resource 'teams'). The wire keeps its Laravel-era /api/tenants paths.

const teamPath = (teamId: number | string) => `/api/tenants/${segment(teamId)}`;

export interface TeamMethods {
  /** PATCH /api/tenants/{id}/users/{userId} {role}. */
  changeTeamMemberRole(teamId: number, userId: number, role: TeamMemberRole): Promise<void>;
  /**
   * PATCH /api/tenants/{id}/users/{userId} {expires_at}: when the membership ends (an ISO
   * date-time), or null for no end.
   */
  setTeamMembershipEnd(teamId: number, userId: number, expiresAt: string | null): Promise<void>;
  /** DELETE /api/tenants/{id}/users/{userId}. */
  removeTeamMember(teamId: number, userId: number): Promise<void>;
  /** POST /api/tenants/{id}/users/bulk {action: 'remove', user_ids}: what happened to each. */
  removeTeamMembers(teamId: number, userIds: number[]): Promise<BulkRemoval>;
  /** GET /api/tenants/{id}/invitations: the pending invitations. */
  getTeamInvitations(teamId: number): Promise<Invitation[]>;
  /** POST /api/tenants/{id}/invitations {email, role, workspace_ids, membership_expires_at?}. */
  inviteToTeam(teamId: number, data: InvitationRequest): Promise<Invitation>;
  /** POST /api/tenants/{id}/invitations {emails (≤ 200), role, …}: what happened to each address. */
  inviteManyToTeam(teamId: number, data: InvitationBatchRequest): Promise<InvitationBatchAnswer>;
  /** POST /api/tenants/{id}/invitations/{invitationId}/resend. */
  resendTeamInvitation(teamId: number, invitationId: number): Promise<Invitation>;
  /** DELETE /api/tenants/{id}/invitations/{invitationId}. */
  revokeTeamInvitation(teamId: number, invitationId: number): Promise<void>;
}

export const teamMethods = (http: HttpClient): TeamMethods => ({
  async changeTeamMemberRole(teamId, userId, role) {
    await http(`${teamPath(teamId)}/users/${segment(userId)}`, { method: 'PATCH', body: { role } });
  },
  async setTeamMembershipEnd(teamId, userId, expiresAt) {
    await http(`${teamPath(teamId)}/users/${segment(userId)}`, { method: 'PATCH', body: { expires_at: expiresAt } });
  },
  async removeTeamMember(teamId, userId) {
    await http(`${teamPath(teamId)}/users/${segment(userId)}`, { method: 'DELETE' });
  },
  async removeTeamMembers(teamId, userIds) {
    const body = { action: 'remove', user_ids: userIds };
    return (await http<BulkRemoval>(`${teamPath(teamId)}/users/bulk`, { method: 'POST', body })).json;
  },
  async getTeamInvitations(teamId) {
    return (await http<Invitation[]>(`${teamPath(teamId)}/invitations`)).json;
  },
  async inviteToTeam(teamId, data) {
    return (await http<Invitation>(`${teamPath(teamId)}/invitations`, { method: 'POST', body: data })).json;
  },
  async inviteManyToTeam(teamId, data) {
    return (await http<InvitationBatchAnswer>(`${teamPath(teamId)}/invitations`, { method: 'POST', body: data })).json;
  },
  async resendTeamInvitation(teamId, invitationId) {
    return (await http<Invitation>(`${teamPath(teamId)}/invitations/${segment(invitationId)}/resend`, { method: 'POST' })).json;
  },
  async revokeTeamInvitation(teamId, invitationId) {
    await http(`${teamPath(teamId)}/invitations/${segment(invitationId)}`, { method: 'DELETE' });
  },
});
