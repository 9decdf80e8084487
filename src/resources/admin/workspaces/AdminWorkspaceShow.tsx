import { Box, Chip, Divider, TableCell, TableRow, Typography } from '@mui/material';
import { Link, Show, TabbedShowLayout, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { RoleChip } from '../../../components/RoleChip';
import { formatDateTime } from '../../../utils/dates';
import { ActivityRow, CompactTabs, DetailField, DetailTable } from '../DetailParts';
import { DeleteWorkspaceButton } from './DeleteWorkspaceButton';
import { QuotaForm } from './QuotaForm';
import { type AdminWorkspaceDetail, isDetail } from './types';

// /admin/workspaces/{id}: one workspace as a platform admin sees it (GET /api/admin/workspaces/{id}),
// its quota form and its deletion. Tabs: summary, members, activity.

const CLUSTER_QUOTA_KEYS = ['requests.cpu', 'limits.cpu', 'requests.memory', 'limits.memory', 'pods', 'requests.storage'];

const Summary = () => {
  const record = useRecordContext<AdminWorkspaceDetail>();
  const translate = useTranslate();
  if (!isDetail(record)) return null;
  const stateColor = record.cluster.state === 'ready' ? 'success' : record.cluster.state === 'error' ? 'error' : 'default';
  return (
    <Box>
      <DetailField label="adminWorkspaces.fields.namespace">{record.namespace}</DetailField>
      <DetailField label="adminWorkspaces.fields.team">
        <Link to={`/teams/${encodeURIComponent(record.team.name)}`}>{record.team.fullname}</Link>
      </DetailField>
      {record.description && <DetailField label="adminWorkspaces.fields.description">{record.description}</DetailField>}
      <DetailField label="adminWorkspaces.fields.created_at">{formatDateTime(record.created_at)}</DetailField>
      <DetailField label="adminWorkspaces.fields.counts">
        {translate('adminWorkspaces.counts.summary', {
          members: translate('adminWorkspaces.counts.members', { smart_count: record.counts.members }),
          managers: translate('adminWorkspaces.counts.managers', { smart_count: record.counts.managers }),
          requests: translate('adminWorkspaces.counts.requests', { smart_count: record.counts.pending_requests }),
        })}
      </DetailField>
      <DetailField label="adminWorkspaces.fields.cluster_state">
        <Chip size="small" variant="outlined" color={stateColor} label={translate(`adminWorkspaces.cluster.${record.cluster.state}`)} />
        {record.cluster.error && (
          <Typography variant="body2" color="error" component="span" sx={{ ml: 1 }}>
            {record.cluster.error}
          </Typography>
        )}
      </DetailField>
      <DetailField label="adminWorkspaces.fields.pod_security">
        {translate('adminWorkspaces.pod_security', { ...record.pod_security })}
      </DetailField>
      <Divider sx={{ my: 2 }} />
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('adminWorkspaces.quota.title')}
      </Typography>
      <QuotaForm />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 3 }}>
        {translate('adminWorkspaces.quota.in_cluster')}
      </Typography>
      {record.quota.cluster ? (
        <DetailTable columns="adminWorkspaces.columns" head={['resource', 'hard', 'used']} empty="adminWorkspaces.quota.unknown">
          {CLUSTER_QUOTA_KEYS.filter((key) => record.quota.cluster!.hard[key] !== undefined).map((key) => (
            <TableRow key={key}>
              <TableCell>{key}</TableCell>
              <TableCell>{record.quota.cluster!.hard[key]}</TableCell>
              <TableCell>{record.quota.cluster!.used[key] ?? '—'}</TableCell>
            </TableRow>
          ))}
        </DetailTable>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate('adminWorkspaces.quota.unknown')}
        </Typography>
      )}
    </Box>
  );
};

const Members = () => {
  const record = useRecordContext<AdminWorkspaceDetail>();
  if (!isDetail(record)) return null;
  return (
    <DetailTable columns="adminWorkspaces.columns" head={['name', 'email', 'role', 'cluster']} empty="adminWorkspaces.empty.members">
      {record.users.map((user) => (
        <TableRow key={user.id}>
          <TableCell>
            <Link to={`/admin/users/${user.id}`}>{user.name}</Link>
          </TableCell>
          <TableCell>{user.email}</TableCell>
          <TableCell>
            <RoleChip role={user.role} />
          </TableCell>
          <TableCell>{user.cluster_state}</TableCell>
        </TableRow>
      ))}
    </DetailTable>
  );
};

const Activity = () => {
  const record = useRecordContext<AdminWorkspaceDetail>();
  if (!isDetail(record)) return null;
  return (
    <DetailTable columns="adminWorkspaces.columns" head={['date', 'severity', 'description', 'causer']} empty="adminWorkspaces.empty.activity">
      {record.activity.map((entry) => (
        <ActivityRow key={entry.id} entry={entry} withCauser />
      ))}
    </DetailTable>
  );
};

const Title = () => {
  const record = useRecordContext<AdminWorkspaceDetail>();
  return <span>{record ? `${record.label} (${record.namespace})` : ''}</span>;
};

/**
 * How often the page reads the workspace again while the reconciler has a change to apply
 * (`pending`): the "In the cluster" table then follows the cluster, a quota saved here shows
 * there within seconds, without a reload.
 */
export const PENDING_REFRESH_MS = 2000;

export const AdminWorkspaceShow = () => {
  const { id } = useParams();
  return (
    <Show
      resource="admin/workspaces"
      id={id}
      title={<Title />}
      queryOptions={{
        refetchInterval: (query) => ((query.state.data as AdminWorkspaceDetail | undefined)?.cluster?.state === 'pending' ? PENDING_REFRESH_MS : false),
      }}
      actions={
        <TopToolbar>
          <DeleteWorkspaceButton />
        </TopToolbar>
      }
    >
      <TabbedShowLayout syncWithLocation={false} tabs={<CompactTabs />}>
        <TabbedShowLayout.Tab label="adminWorkspaces.tabs.summary">
          <Summary />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="adminWorkspaces.tabs.members">
          <Members />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="adminWorkspaces.tabs.activity">
          <Activity />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
};
