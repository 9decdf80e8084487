import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { DataTable, Link, List, useDataProvider, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { formatDateTime } from '../../../utils/dates';
import { type BulkSelection, BulkFlowDialog, BulkToolbar, totalsInWords, useBulkSelection, useCountInWords, useFormatCount } from '../bulk';
import { AdminSearchInput, adminTableSx, NamesWithRoles } from '../common';
import { AdminListActions } from '../ExportCsvButton';
import { asideListSx, ChoiceFilter, DateRangeFilter, EndFilter, FilterSidebar } from '../FilterSidebar';
import { BulkExtendButton } from '../lifecycle/BulkExtendButton';
import { EndsCell } from '../lifecycle/EndsCell';
import type { EndStatus } from '../lifecycle/types';
import { CardLine, ListCards, usePhoneLayout } from '../ListCards';
import { type TeamRowMember, TeamMembersCell } from './TeamMembersCell';
import type { BulkTeamsAnswer, BulkTeamsRequest } from './types';

interface AdminTeam {
  id: number;
  name: string;
  fullname?: string | null;
  shortname?: string | null;
  created_at?: string;
  /** false: suspended by a platform admin. */
  enabled?: boolean;
  /** The list answers counts and the first members, not all of them (25 teams listing every member inline were too slow at 100,000 users). */
  member_count?: number;
  /** The first members (up to five, owners first) with their role. */
  users?: TeamRowMember[];
  workspace_count?: number;
  workspaces?: { id: number; name: string }[];
  /** The review date (null: none) and where it stands. */
  expires_at?: string | null;
  status?: EndStatus;
}

/** Enabled, or Suspended (by a platform admin: its members have no rights in it for now). */
const TeamStatusChip = ({ enabled }: { enabled?: boolean }) => {
  const translate = useTranslate();
  return enabled === false ? (
    <Chip size="small" variant="outlined" color="warning" label={translate('teamAdmin.suspended')} />
  ) : (
    <Chip size="small" variant="outlined" color="success" label={translate('teams.enabled')} />
  );
};

const filters = [<AdminSearchInput key="q" source="q" alwaysOn />];

/** When it ends, creation date and whether the team has workspaces (filter[expiring_within_days|expired], filter[from|to], filter[has_workspaces]). */
const TeamFilters = () => {
  const translate = useTranslate();
  return (
    <FilterSidebar>
      <EndFilter />
      <DateRangeFilter />
      <ChoiceFilter
        label="admin_filters.workspaces"
        source="has_workspaces"
        choices={[
          { id: 'true', name: translate('admin_filters.with_workspaces') },
          { id: 'false', name: translate('admin_filters.without_workspaces') },
        ]}
      />
    </FilterSidebar>
  );
};

/** The list's filter values as the bulk body's `filter` (the search, the dates, with or without workspaces, when it ends). */
export const bulkTeamsFilter = (values: Record<string, unknown>): NonNullable<BulkTeamsRequest['filter']> => {
  const filter: NonNullable<BulkTeamsRequest['filter']> = {};
  if (typeof values.q === 'string' && values.q !== '') filter.q = values.q;
  if (typeof values.from === 'string' && values.from !== '') filter.from = values.from;
  if (typeof values.to === 'string' && values.to !== '') filter.to = values.to;
  if (values.has_workspaces === true || values.has_workspaces === 'true') filter.has_workspaces = true;
  if (values.has_workspaces === false || values.has_workspaces === 'false') filter.has_workspaces = false;
  if (values.expiring_within_days !== undefined && values.expiring_within_days !== '') filter.expiring_within_days = Number(values.expiring_within_days);
  if (values.expired === true || values.expired === 'true') filter.expired = true;
  if (values.expired === false || values.expired === 'false') filter.expired = false;
  return filter;
};

type TeamAction = 'suspend' | 'enable';

/**
 * Bulk Suspend / Enable (POST /api/admin/teams/bulk) of the checked teams, or of every team
 * the filter matches after "Select all N matching". The dry run's counts say whom it reaches
 * ("Suspending 12 teams takes cluster access from 340 members in 25 workspaces"); the server
 * suspends each as the team page's Suspend does. Extend… moves their review dates.
 */
const BulkTeamButtons = () => {
  const translate = useTranslate();
  const selection = useBulkSelection();
  const { onUnselectItems } = useListContext();
  const [running, setRunning] = useState<{ action: TeamAction; selection: BulkSelection } | null>(null);
  return (
    <>
      <Button size="small" color="warning" onClick={() => setRunning({ action: 'suspend', selection })}>
        {translate('adminBulk.teams.suspend')}
      </Button>
      <Button size="small" color="success" onClick={() => setRunning({ action: 'enable', selection })}>
        {translate('adminBulk.teams.enable')}
      </Button>
      <BulkExtendButton list="teams" filterOf={bulkTeamsFilter} />
      {running && (
        <BulkTeamsDialog
          action={running.action}
          selection={running.selection}
          onClose={(finished) => {
            if (finished) onUnselectItems();
            setRunning(null);
          }}
        />
      )}
    </>
  );
};

const BulkTeamsDialog = ({ action, selection, onClose }: { action: TeamAction; selection: BulkSelection; onClose: (finished: boolean) => void }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const inWords = useCountInWords();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  const counted = (key: string, count: number) => inWords(`adminBulk.teams.${key}`, count);
  const target = selection.allMatching ? { filter: bulkTeamsFilter(selection.filterValues) } : { ids: selection.ids };
  return (
    <BulkFlowDialog<BulkTeamsAnswer>
      titleId="bulk-teams-title"
      send={(dryRun) => dataProvider.bulkTeams({ ...target, action, ...(dryRun ? { dry_run: true } : {}) })}
      confirmation={(preview) => {
        const teams = counted('count', preview.totals.done);
        const skipped = preview.matched - preview.totals.done;
        return {
          title: translate(`adminBulk.teams.${action}_title`, { teams }),
          nothing: preview.totals.done === 0,
          content:
            preview.totals.done === 0
              ? translate('adminBulk.teams.nothing')
              : [
                  translate(`adminBulk.teams.${action}_content`, {
                    teams,
                    members: counted('members', preview.reach.members),
                    workspaces: counted('workspaces', preview.reach.workspaces),
                  }),
                  ...(skipped > 0 ? [counted('skipped', skipped)] : []),
                ].join(' '),
        };
      }}
      confirmLabel={translate(`adminBulk.teams.${action}`)}
      confirmColor={action === 'suspend' ? 'warning' : 'success'}
      running={(preview) => translate('adminBulk.teams.running', { teams: counted('count', preview.totals.done) })}
      outcome={(answer) => ({
        summary: totalsInWords(translate, format, [
          [`adminBulk.teams.outcome.${action === 'suspend' ? 'suspended' : 'enabled'}`, answer.totals.done],
          ['adminBulk.teams.outcome.unchanged', answer.totals.unchanged],
          ['adminBulk.teams.outcome.not_found', answer.totals.not_found],
        ]),
        failures: answer.results.filter((item) => item.status === 'not_found').map((item) => ({ id: item.id, reason: 'adminBulk.not_found' })),
      })}
      onDone={refresh}
      onClose={onClose}
    />
  );
};

/**
 * /admin/teams: every team with its first members and their roles ("+N more"), its workspaces, each linking to /admin/teams/{id};
 * GET /api/admin/teams (paginated). Checked rows (or all matching) can be suspended or enabled.
 */
const teamsToolbar = (
  <BulkToolbar>
    <BulkTeamButtons />
  </BulkToolbar>
);

/** Below sm: the same facts as the table's row, one card per team. */
const TeamCard = ({ record }: { record: AdminTeam }) => (
  <Stack spacing={0.5}>
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
      <Box sx={{ minWidth: 0 }}>
        <Link to={`/admin/teams/${record.id}`}>{record.name}</Link>
        {record.fullname && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {record.fullname}
          </Typography>
        )}
      </Box>
      <TeamStatusChip enabled={record.enabled} />
    </Stack>
    <CardLine label="resources.admin/teams.fields.member_count">
      <TeamMembersCell teamId={record.id} users={record.users} memberCount={record.member_count} />
    </CardLine>
    {(record.workspaces?.length ?? 0) > 0 && (
      <CardLine label="resources.admin/teams.fields.workspaces">
        <NamesWithRoles items={record.workspaces} to={(item) => `/workspaces/${item.id}`} />
      </CardLine>
    )}
    <CardLine label="resources.admin/teams.fields.expires_at">
      <EndsCell expiresAt={record.expires_at} status={record.status} />
    </CardLine>
    <CardLine label="resources.admin/teams.fields.created_at">{formatDateTime(record.created_at)}</CardLine>
  </Stack>
);

export const AdminTeamList = () => {
  const phone = usePhoneLayout();
  const translate = useTranslate();
  return (
  <List<AdminTeam>
    resource="admin/teams"
    filters={filters}
    aside={<TeamFilters />}
    actions={<AdminListActions />}
    sort={{ field: 'name', order: 'ASC' }}
    perPage={25}
    sx={asideListSx}
  >
    {phone ? (
      <ListCards<AdminTeam> label={translate('resources.admin/teams.name', { smart_count: 2 })} bulkActionsToolbar={teamsToolbar}>
        {(record) => <TeamCard record={record} />}
      </ListCards>
    ) : (
    <DataTable<AdminTeam>
      bulkActionButtons={<BulkTeamButtons />}
      bulkActionsToolbar={teamsToolbar}
      rowClick={false}
      sx={adminTableSx}
    >
      <DataTable.Col<AdminTeam> source="name" render={(record) => <Link to={`/admin/teams/${record.id}`}>{record.name}</Link>} />
      <DataTable.Col<AdminTeam> source="fullname" />
      {/* The spec's "users with role", in place of a bare member count; the workspaces' names
          say how many there are, so the table keeps no count column of its own and fits at
          1280 px beside the menu. */}
      <DataTable.Col<AdminTeam>
        source="users"
        label="resources.admin/teams.fields.member_count"
        disableSort
        render={(record) => <TeamMembersCell teamId={record.id} users={record.users} memberCount={record.member_count} />}
      />
      <DataTable.Col<AdminTeam>
        source="workspaces"
        disableSort
        render={(record) => <NamesWithRoles items={record.workspaces} to={(item) => `/workspaces/${item.id}`} />}
      />
      <DataTable.Col<AdminTeam>
        source="enabled"
        label="teamAdmin.fields.status"
        disableSort
        render={(record) => <TeamStatusChip enabled={record.enabled} />}
      />
      <DataTable.Col<AdminTeam> source="expires_at" render={(record) => <EndsCell expiresAt={record.expires_at} status={record.status} />} />
      <DataTable.Col<AdminTeam> source="created_at" render={(record) => formatDateTime(record.created_at)} />
    </DataTable>
    )}
  </List>
  );
};
