import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.js';
import * as teams from './0002_teams.js';
import * as cluster from './0003_cluster.js';
import * as nodes from './0004_nodes.js';
import * as revocations from './0005_revocations.js';
import * as throttles from './0006_throttles.js';
import * as deletions from './0007_deletions.js';
import * as requestIndexes from './0008_request_indexes.js';
import * as workspaceQuota from './0009_workspace_quota.js';
import * as search from './0010_search.js';
import * as listCounts from './0011_list_counts.js';
import * as replicas from './0012_replicas.js';
import * as invitations from './0013_invitations.js';
import * as identities from './0014_identities.js';
import * as userLocale from './0015_user_locale.js';
import * as identityOrigin from './0016_identity_origin.js';
import * as lifecycle from './0017_lifecycle.js';
import * as noticeSubjects from './0018_notice_subjects.js';
import * as usage from './0019_usage.js';
import * as dashboard from './0020_dashboard.js';
import * as usageDays from './0021_usage_days.js';

/**
 * Every migration, by name; they run in name order. Add new ones at the end with the next
 * number, and never edit one that has shipped: later issues extend the schema additively.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_teams': teams,
  '0003_cluster': cluster,
  '0004_nodes': nodes,
  '0005_revocations': revocations,
  '0006_throttles': throttles,
  '0007_deletions': deletions,
  '0008_request_indexes': requestIndexes,
  '0009_workspace_quota': workspaceQuota,
  '0010_search': search,
  '0011_list_counts': listCounts,
  '0012_replicas': replicas,
  '0013_invitations': invitations,
  '0014_identities': identities,
  '0015_user_locale': userLocale,
  '0016_identity_origin': identityOrigin,
  '0017_lifecycle': lifecycle,
  '0018_notice_subjects': noticeSubjects,
  '0019_usage': usage,
  '0020_dashboard': dashboard,
  '0021_usage_days': usageDays,
};
