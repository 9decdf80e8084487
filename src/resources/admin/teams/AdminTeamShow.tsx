import { Alert, Box, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Show, TabbedShowLayout, useRecordContext, useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { RoleChip } from '../../../components/RoleChip';
import { EnabledChip } from '../../../components/EnabledChip';
import { formatDateTime } from '../../../utils/dates';
import { SeverityChip } from '../common';
import { AdminTeamActions } from './AdminTeamActions';
import { type AdminTeamDetail, isDetail } from './teamCalls';

// /admin/teams/{id}: one team as a platform admin sees it (GET /api/admin/teams/{id}), with its
// members, workspaces and activity, and the actions of AdminTeamActions (edit, suspend/enable,
// delete with the dry run's list).

const SmallTable = ({ head, children, empty, isEmpty }: { head: string[]; children: ReactNode; empty: string; isEmpty: boolean }) => {
  const translate = useTranslate();
  if (isEmpty) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
        {translate(empty)}
      </Typography>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {head.map((key) => (
              <TableCell key={key}>{translate(`teamAdmin.columns.${key}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </Box>
  );
};

const Field = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 1.5 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate(label)}
      </Typography>
      <Typography variant="body2" component="div">
        {children || '—'}
      </Typography>
    </Box>
  );
};

const Summary = () => {
  const record = useRecordContext<AdminTeamDetail>();
  const translate = useTranslate();
  if (!isDetail(record)) return null;
  const counts = ['members', 'owners', 'managers', 'workspaces', 'workspace_members', 'pending_requests'] as const;
  return (
    <Box>
      <Field label="teamAdmin.fields.status">
        <Chip size="small" variant="outlined" color={record.enabled ? 'success' : 'error'} label={translate(record.enabled ? 'teamAdmin.active' : 'teamAdmin.suspended')} />
      </Field>
      <Field label="teams.fields.fullname">{record.fullname}</Field>
      <Field label="teams.fields.shortname">{record.shortname}</Field>
      <Field label="teams.fields.name">
        <code>{record.name}</code>
      </Field>
      <Field label="teams.fields.affiliation">{record.affiliation}</Field>
      <Field label="teams.fields.country">{record.country}</Field>
      <Field label="teams.fields.url">{record.url}</Field>
      <Field label="teams.fields.joining_category">{record.joining_category}</Field>
      <Field label="teamAdmin.fields.created_at">{formatDateTime(record.created_at)}</Field>
      <Stack direction="row" spacing={3} sx={{ flexWrap: 'wrap' }}>
        {counts.map((key) => (
          <Field key={key} label={`teamAdmin.fields.${key}`}>
            <span data-count={key}>{String(record.counts[key])}</span>
          </Field>
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
    <SmallTable head={['name', 'email', 'role', 'enabled', 'joined']} empty="teamAdmin.no_members" isEmpty={record.members.length === 0}>
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
    </SmallTable>
    </>
  );
};

const Workspaces = () => {
  const record = useRecordContext<AdminTeamDetail>();
  if (!isDetail(record)) return null;
  return (
    <SmallTable head={['name', 'namespace', 'members', 'state']} empty="teamAdmin.no_workspaces" isEmpty={record.workspaces.length === 0}>
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
    </SmallTable>
  );
};

const Activity = () => {
  const record = useRecordContext<AdminTeamDetail>();
  if (!isDetail(record)) return null;
  return (
    <SmallTable head={['date', 'severity', 'description']} empty="teamAdmin.no_activity" isEmpty={record.activity.length === 0}>
      {record.activity.map((entry) => (
        <TableRow key={entry.id}>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</TableCell>
          <TableCell>
            <SeverityChip severity={entry.properties.severity} />
          </TableCell>
          <TableCell>{entry.description}</TableCell>
        </TableRow>
      ))}
    </SmallTable>
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
      <TabbedShowLayout syncWithLocation={false}>
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
