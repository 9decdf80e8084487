import { Alert, Box, Chip, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { Link, Show, TabbedShowLayout, useRecordContext, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { RoleChip } from '../../../components/RoleChip';
import { EnabledChip } from '../../../components/EnabledChip';
import { formatDateTime } from '../../../utils/dates';
import { ActivityRow, CompactTabs, DetailField, DetailTable } from '../DetailParts';
import { AdminTeamActions } from './AdminTeamActions';
import { type AdminTeamDetail, isDetail } from './types';

// /admin/teams/{id}: one team as a platform admin sees it (GET /api/admin/teams/{id}), with its
// members, workspaces and activity, and the actions of AdminTeamActions (edit, suspend/enable,
// delete with the dry run's list).

const Summary = () => {
  const record = useRecordContext<AdminTeamDetail>();
  const translate = useTranslate();
  if (!isDetail(record)) return null;
  const counts = ['members', 'owners', 'managers', 'workspaces', 'workspace_members', 'pending_requests'] as const;
  return (
    <Box>
      <DetailField label="teamAdmin.fields.status">
        <Chip size="small" variant="outlined" color={record.enabled ? 'success' : 'error'} label={translate(record.enabled ? 'teamAdmin.active' : 'teamAdmin.suspended')} />
      </DetailField>
      <DetailField label="teams.fields.fullname">{record.fullname}</DetailField>
      <DetailField label="teams.fields.shortname">{record.shortname}</DetailField>
      <DetailField label="teams.fields.name">
        <code>{record.name}</code>
      </DetailField>
      <DetailField label="teams.fields.affiliation">{record.affiliation}</DetailField>
      <DetailField label="teams.fields.country">{record.country}</DetailField>
      <DetailField label="teams.fields.url">{record.url}</DetailField>
      <DetailField label="teams.fields.joining_category">
        {record.joining_category && translate(`teams.categories.${record.joining_category}`, { _: record.joining_category })}
      </DetailField>
      <DetailField label="teamAdmin.fields.created_at">{formatDateTime(record.created_at)}</DetailField>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', columnGap: 3 }}>
        {counts.map((key) => (
          <DetailField key={key} label={`teamAdmin.fields.${key}`}>
            <span data-count={key}>{String(record.counts[key])}</span>
          </DetailField>
        ))}
      </Stack>
    </Box>
  );
};

const Members = () => {
  const record = useRecordContext<AdminTeamDetail>();
  const translate = useTranslate();
  if (!isDetail(record)) return null;
  return (
    <>
    {/* Roles and removals live on the team page, where owners and managers use them too. */}
    <Typography variant="body2" sx={{ py: 1 }}>
      <Link to={`/teams/${record.id}`}>{translate('teamAdmin.manage_members')}</Link>
    </Typography>
    <DetailTable columns="teamAdmin.columns" head={['name', 'email', 'role', 'enabled', 'joined']} empty="teamAdmin.no_members" isEmpty={record.members.length === 0}>
      {record.members.map((member) => (
        <TableRow key={member.id}>
          <TableCell>
            <Link to={`/admin/users/${member.id}`}>{member.name}</Link>
          </TableCell>
          <TableCell>{member.email}</TableCell>
          <TableCell>
            <RoleChip role={member.role} />
          </TableCell>
          <TableCell>
            <EnabledChip enabled={member.enabled} />
          </TableCell>
          <TableCell>{formatDateTime(member.joined_at)}</TableCell>
        </TableRow>
      ))}
    </DetailTable>
    </>
  );
};

const Workspaces = () => {
  const record = useRecordContext<AdminTeamDetail>();
  if (!isDetail(record)) return null;
  return (
    <DetailTable columns="teamAdmin.columns" head={['name', 'namespace', 'members', 'state']} empty="teamAdmin.no_workspaces" isEmpty={record.workspaces.length === 0}>
      {record.workspaces.map((workspace) => (
        <TableRow key={workspace.id}>
          <TableCell>
            <Link to={`/admin/workspaces/${workspace.id}`}>{workspace.label || workspace.name}</Link>
          </TableCell>
          <TableCell>
            <code>{workspace.namespace}</code>
          </TableCell>
          <TableCell>{workspace.member_count}</TableCell>
          <TableCell>{workspace.cluster_state}</TableCell>
        </TableRow>
      ))}
    </DetailTable>
  );
};

const Activity = () => {
  const record = useRecordContext<AdminTeamDetail>();
  if (!isDetail(record)) return null;
  return (
    <DetailTable columns="teamAdmin.columns" head={['date', 'severity', 'description']} empty="teamAdmin.no_activity" isEmpty={record.activity.length === 0}>
      {record.activity.map((entry) => (
        <ActivityRow key={entry.id} entry={entry} />
      ))}
    </DetailTable>
  );
};

const Heading = () => {
  const record = useRecordContext<AdminTeamDetail>();
  const translate = useTranslate();
  if (!isDetail(record)) return null;
  return (
    <Box sx={{ px: 2, pt: 2 }}>
      <Typography variant="h5" component="h1">
        {record.fullname}
      </Typography>
      {!record.enabled && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {translate('teamAdmin.suspended_notice')}
        </Alert>
      )}
    </Box>
  );
};

const TeamTitle = () => {
  const record = useRecordContext<AdminTeamDetail>();
  return <span>{record?.fullname ?? ''}</span>;
};

export const AdminTeamShow = () => {
  const { id } = useParams();
  const translate = useTranslate();
  return (
    <Show<AdminTeamDetail> resource="admin/teams" id={id ? Number(id) : undefined} actions={<AdminTeamActions />} title={<TeamTitle />}>
      <Heading />
      <TabbedShowLayout syncWithLocation={false} tabs={<CompactTabs />}>
        <TabbedShowLayout.Tab label={translate('teamAdmin.tabs.summary')}>
          <Summary />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label={translate('teamAdmin.tabs.members')}>
          <Members />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label={translate('teamAdmin.tabs.workspaces')}>
          <Workspaces />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label={translate('teamAdmin.tabs.activity')}>
          <Activity />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
};
