import { Box, Button, Chip, IconButton, Stack, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { useState } from 'react';
import { Link, Show, TabbedShowLayout, TopToolbar, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { useParams } from 'react-router-dom';
import { RoleChip } from '../../../components/RoleChip';
import { useCurrentUser } from '../../../hooks';
import { errorMessage } from '../../../httpClient';
import { AdminUserIdentities } from '../../../pages/profile/LinkedIdentities';
import { formatDateTime } from '../../../utils/dates';
import { NodeStatusBadge } from '../../nodes/NodeStatusBadge';
import { ActivityRow, CompactTabs, DetailField, DetailTable } from '../DetailParts';
import type { AdminUserDetail } from './types';

// /admin/users/{id}: everything about one person (GET /api/admin/users/{id}) and what a
// platform admin does to them. Each action asks first, saying what it will do with the
// counts the page knows ("Disabling Ada Lovelace revokes 3 personal tokens and 2 kubeconfigs…").

/**
 * The page's record once GET /api/admin/users/{id} answered: coming from the list, react-admin
 * first shows the list's row (no counts, tokens or nodes), which the tabs cannot use.
 */
const useDetail = (): AdminUserDetail | undefined => {
  const record = useRecordContext<AdminUserDetail>();
  return record?.counts ? record : undefined;
};

const Summary = () => {
  const record = useDetail();
  const translate = useTranslate();
  if (!record) return null;
  const date = (value: string | null, none = 'adminUsers.fields.not_yet') => (value ? formatDateTime(value) : translate(none));
  return (
    <Box>
      <DetailField label="adminUsers.fields.email">{record.email}</DetailField>
      <DetailField label="adminUsers.fields.enabled">
        <Chip size="small" variant="outlined" color={record.enabled ? 'success' : 'error'} label={translate(record.enabled ? 'resources.admin/users.enabled' : 'resources.admin/users.disabled')} />
      </DetailField>
      <DetailField label="adminUsers.fields.admin">{translate(record.admin ? 'adminUsers.fields.yes' : 'adminUsers.fields.no')}</DetailField>
      <DetailField label="adminUsers.fields.email_verified_at">{date(record.email_verified_at)}</DetailField>
      <DetailField label="adminUsers.fields.aup_accepted_at">{date(record.aup_accepted_at)}</DetailField>
      <DetailField label="adminUsers.fields.created_at">{formatDateTime(record.created_at)}</DetailField>
      <DetailField label="adminUsers.fields.last_login_at">
        <Tooltip title={translate('adminUsers.fields.last_login_hint')}>
          <span>{date(record.last_login_at, 'adminUsers.fields.never')}</span>
        </Tooltip>
      </DetailField>
      <DetailField label="adminUsers.fields.sessions">{record.counts.sessions}</DetailField>
      <AdminUserIdentities userId={record.id} />
    </Box>
  );
};

const Memberships = () => {
  const record = useDetail();
  if (!record) return null;
  return (
    <Stack spacing={2}>
      <DetailTable columns="adminUsers.columns" head={['team', 'role']} empty="adminUsers.empty.memberships" isEmpty={record.teams.length === 0 && record.workspaces.length === 0}>
        {record.teams.map((team) => (
          <TableRow key={team.id}>
            <TableCell>
              <Link to={`/teams/${encodeURIComponent(team.name)}`}>{team.fullname}</Link>
            </TableCell>
            <TableCell>
              <RoleChip role={team.role} />
            </TableCell>
          </TableRow>
        ))}
      </DetailTable>
      {record.workspaces.length > 0 && (
        <DetailTable columns="adminUsers.columns" head={['workspace', 'team', 'role', 'cluster']} empty="adminUsers.empty.memberships" isEmpty={false}>
          {record.workspaces.map((workspace) => (
            <TableRow key={workspace.id}>
              <TableCell>
                <Link to={`/workspaces/${workspace.id}`}>{workspace.namespace}</Link>
              </TableCell>
              <TableCell>{workspace.team.name}</TableCell>
              <TableCell>
                <RoleChip role={workspace.role} />
              </TableCell>
              <TableCell>{workspace.cluster_state}</TableCell>
            </TableRow>
          ))}
        </DetailTable>
      )}
    </Stack>
  );
};

/** Runs an admin action, then reloads the page's record and says how it went. */
const useAction = () => {
  const notify = useNotify();
  const refresh = useRefresh();
  const [working, setWorking] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string, args: Record<string, unknown>) => {
    setWorking(true);
    try {
      await action();
      notify(done, { type: 'success', messageArgs: args });
      refresh();
    } catch (error) {
      notify(errorMessage(error, 'adminUsers.error'), { type: 'error' });
    } finally {
      setWorking(false);
    }
  };
  return { working, run };
};

const Tokens = () => {
  const record = useDetail();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { working, run } = useAction();
  const [revoking, setRevoking] = useState<{ id: number; name: string } | null>(null);
  if (!record) return null;
  return (
    <>
      <DetailTable columns="adminUsers.columns" head={['name', 'created', 'last_used', 'expires']} empty="adminUsers.empty.tokens" isEmpty={record.tokens.length === 0}>
        {record.tokens.map((token) => (
          <TableRow key={token.id}>
            <TableCell>{token.name}</TableCell>
            <TableCell>{formatDateTime(token.created_at)}</TableCell>
            <TableCell>{token.last_used_at ? formatDateTime(token.last_used_at) : translate('adminUsers.fields.never')}</TableCell>
            <TableCell>
              {token.expires_at ? formatDateTime(token.expires_at) : '—'}
              <IconButton
                size="small"
                aria-label={translate('adminUsers.actions.revoke_token_label', { name: token.name })}
                onClick={() => setRevoking(token)}
                disabled={working}
                sx={{ ml: 1 }}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </DetailTable>
      <ConfirmDialog
        isOpen={revoking !== null}
        loading={working}
        title="adminUsers.confirm.revoke_token_title"
        content="adminUsers.confirm.revoke_token_content"
        translateOptions={{ token: revoking?.name ?? '' }}
        destructive
        confirm="adminUsers.actions.revoke_token"
        onConfirm={() =>
          void run(() => dataProvider.revokeUserTokens(record.id, revoking!.id), 'adminUsers.done.tokens', {
            tokens: translate('adminUsers.counts.tokens', { smart_count: 1 }),
            smart_count: 1,
          }).then(() => setRevoking(null))
        }
        onClose={() => setRevoking(null)}
      />
    </>
  );
};

const Nodes = () => {
  const record = useDetail();
  if (!record) return null;
  return (
    <DetailTable columns="adminUsers.columns" head={['node', 'type', 'status', 'last_active']} empty="adminUsers.empty.nodes" isEmpty={record.nodes.length === 0}>
      {record.nodes.map((node) => (
        <TableRow key={node.id}>
          <TableCell>{node.name ? <Link to={`/admin/nodes/${encodeURIComponent(node.name)}`}>{node.name}</Link> : (node.hostname ?? `#${node.id}`)}</TableCell>
          <TableCell>{node.type}</TableCell>
          <TableCell>
            <NodeStatusBadge status={node.status} />
          </TableCell>
          <TableCell>{node.last_active_at ? formatDateTime(node.last_active_at) : '—'}</TableCell>
        </TableRow>
      ))}
    </DetailTable>
  );
};

const Activity = () => {
  const record = useDetail();
  if (!record) return null;
  return (
    <DetailTable columns="adminUsers.columns" head={['date', 'severity', 'description']} empty="adminUsers.empty.activity" isEmpty={record.activity.length === 0}>
      {record.activity.map((entry) => (
        <ActivityRow key={entry.id} entry={entry} />
      ))}
    </DetailTable>
  );
};

type Pending = 'disable' | 'enable' | 'make_admin' | 'remove_admin' | 'revoke_tokens' | null;

/** Disable/Enable, Make admin/Remove admin, Revoke tokens, each confirmed with what it will do. */
const UserActions = () => {
  const record = useDetail();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const me = useCurrentUser();
  const { working, run } = useAction();
  const [pending, setPending] = useState<Pending>(null);
  if (!record) return <TopToolbar />;
  const self = me?.id === record.id;
  const args = {
    name: record.name,
    tokens: translate('adminUsers.counts.tokens', { smart_count: record.counts.personal_tokens }),
    kubeconfigs: translate('adminUsers.counts.kubeconfigs', { smart_count: record.counts.kubeconfigs }),
    sessions: translate('adminUsers.counts.sessions', { smart_count: record.counts.sessions }),
  };
  const update = (data: { enabled?: boolean; admin?: boolean }) => () =>
    dataProvider.update('admin/users', { id: record.id, data, previousData: record });
  // `doneArgs`: what the notice needs beyond `args`.
  const actions: Record<Exclude<Pending, null>, { call: () => Promise<unknown>; done: string; doneArgs?: Record<string, unknown> }> = {
    disable: { call: update({ enabled: false }), done: 'adminUsers.done.disabled' },
    enable: { call: update({ enabled: true }), done: 'adminUsers.done.enabled' },
    make_admin: { call: update({ admin: true }), done: 'adminUsers.done.admin' },
    remove_admin: { call: update({ admin: false }), done: 'adminUsers.done.not_admin' },
    // The notice agrees with the tokens' number ('1 jeton personnel révoqué').
    revoke_tokens: { call: () => dataProvider.revokeUserTokens(record.id), done: 'adminUsers.done.tokens', doneArgs: { smart_count: record.counts.personal_tokens } },
  };
  const button = (key: Exclude<Pending, null>, color: 'error' | 'primary' | 'success' = 'primary', disabled = false) => (
    <Button key={key} size="small" variant="outlined" color={color} onClick={() => setPending(key)} disabled={working || disabled}>
      {translate(`adminUsers.actions.${key}`)}
    </Button>
  );
  return (
    <TopToolbar sx={{ flexWrap: 'wrap', gap: 1 }}>
      {record.enabled ? button('disable', 'error', self) : button('enable', 'success')}
      {record.admin ? button('remove_admin', 'primary', self) : button('make_admin')}
      {button('revoke_tokens', 'primary', record.counts.personal_tokens === 0)}
      <ConfirmDialog
        isOpen={pending !== null}
        loading={working}
        title={pending ? `adminUsers.confirm.${pending}_title` : ''}
        content={pending ? `adminUsers.confirm.${pending}_content` : ''}
        translateOptions={args}
        // What takes away access is red; what grants it (enable, make admin) is not.
        destructive={pending === 'disable' || pending === 'remove_admin' || pending === 'revoke_tokens'}
        confirm={pending ? `adminUsers.actions.${pending}` : 'ra.action.confirm'}
        onConfirm={() => {
          if (!pending) return;
          const { call, done, doneArgs } = actions[pending];
          void run(call, done, { ...args, ...doneArgs }).then(() => setPending(null));
        }}
        onClose={() => setPending(null)}
      />
    </TopToolbar>
  );
};

const Heading = () => {
  const record = useDetail();
  return record ? (
    <Typography variant="h5" component="h1" sx={{ px: 2, pt: 2 }}>
      {record.name}
    </Typography>
  ) : null;
};

/** /admin/users/{id} (a child route of the admin/users resource, as /admin/nodes/{name}). */
export const UserShow = () => {
  const { id } = useParams();
  return (
    <Show<AdminUserDetail> resource="admin/users" id={Number(id)} actions={<UserActions />} title={<UserTitle />}>
      <Heading />
      <TabbedShowLayout syncWithLocation={false} tabs={<CompactTabs />}>
        <TabbedShowLayout.Tab label="adminUsers.tabs.summary">
          <Summary />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="adminUsers.tabs.memberships">
          <Memberships />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="adminUsers.tabs.tokens">
          <Tokens />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="adminUsers.tabs.nodes">
          <Nodes />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="adminUsers.tabs.activity">
          <Activity />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
};

const UserTitle = () => {
  const record = useDetail();
  return <span>{record?.name ?? ''}</span>;
};
