import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import LeaderboardOutlinedIcon from '@mui/icons-material/LeaderboardOutlined';
import MemoryOutlinedIcon from '@mui/icons-material/MemoryOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import { Alert, Box, Button, Link as MuiLink, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { type ReactElement, useCallback, useEffect, useState } from 'react';
import { Title, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { errorMessage } from '../../../httpClient';
import { formatDateTime } from '../../../utils/dates';
import { usageAmountFormat } from '../../../utils/usageAmounts';
import { CountLink, DashboardCard, listUrl, UsageBar, useNumber } from './DashboardCards';
import type { AdminDashboard } from './types';

const HOUR_MS = 3_600_000;

const Empty = ({ children }: { children: string }) => (
  <Typography color="text.secondary" sx={{ py: 1 }}>
    {children}
  </Typography>
);

const PendingRequests = ({ data }: { data: AdminDashboard['pending_requests'] }) => {
  const translate = useTranslate();
  const pending = data.by_type.filter((entry) => entry.count > 0);
  return (
    <>
      <CountLink big to={listUrl('/requests', { status: 'Pending' })} value={data.total} label={translate('dashboard.pending.all')} />
      {pending.length === 0 ? (
        <Empty>{translate('dashboard.pending.none')}</Empty>
      ) : (
        pending.map((entry) => (
          <CountLink
            key={entry.type}
            to={listUrl('/requests', { status: 'Pending', type: entry.type })}
            value={entry.count}
            label={translate(`requests.type.${entry.type}`, { _: entry.type })}
          />
        ))
      )}
    </>
  );
};

const ActivePeople = ({ data }: { data: AdminDashboard['active_people'] }) => {
  const translate = useTranslate();
  return (
    <>
      {([['day', 1], ['week', 7], ['month', 30]] as const).map(([window, days]) => (
        <CountLink key={window} to={listUrl('/admin/users', { active_within_days: days })} value={data[window]} label={translate(`dashboard.active.${window}`)} />
      ))}
      <Typography variant="caption" color="text.secondary">
        {translate('dashboard.active.hint')}
      </Typography>
    </>
  );
};

const ExpiringSoon = ({ data }: { data: AdminDashboard['expiring_soon'] }) => {
  const translate = useTranslate();
  const filter = { expiring_within_days: data.days };
  return (
    <>
      <CountLink to={listUrl('/admin/teams', filter)} value={data.teams} label={translate('dashboard.expiring.teams')} />
      <CountLink to={listUrl('/admin/workspaces', filter)} value={data.workspaces} label={translate('dashboard.expiring.workspaces')} />
    </>
  );
};

const NodesByStatus = ({ data }: { data: AdminDashboard['nodes_by_status'] }) => {
  const translate = useTranslate();
  if (data.length === 0) return <Empty>{translate('dashboard.nodes.none')}</Empty>;
  return (
    <>
      {data.map((entry) => (
        <CountLink
          key={entry.status}
          to={listUrl('/admin/nodes', { status: entry.status })}
          value={entry.count}
          label={translate(`admin_filters.node_statuses.${entry.status}`, { _: entry.status })}
        />
      ))}
    </>
  );
};

const Capacity = ({ data }: { data: AdminDashboard['capacity'] }) => {
  const translate = useTranslate();
  const number = useNumber();
  const { contributed, used } = data;
  return (
    <>
      <MuiLink component={Link} to={listUrl('/admin/nodes', { status: 'ok' })} sx={{ display: 'inline-block', mb: 1 }}>
        {translate('dashboard.capacity.ready_nodes', { smart_count: contributed.nodes })}
      </MuiLink>
      {contributed.nodes === 0 && <Empty>{translate('dashboard.capacity.no_nodes')}</Empty>}
      {used === null ? (
        <Empty>{translate('dashboard.capacity.no_usage')}</Empty>
      ) : (
        <>
          <UsageBar
            label={translate('dashboard.capacity.cpu')}
            used={used.cpu}
            total={contributed.cpu}
            text={translate('dashboard.capacity.cores', { used: number(used.cpu, 1), total: number(contributed.cpu, 1) })}
          />
          <UsageBar
            label={translate('dashboard.capacity.memory')}
            used={used.memory}
            total={contributed.memory}
            text={translate('dashboard.capacity.gib', { used: number(used.memory, 1), total: number(contributed.memory, 1) })}
          />
          <Typography variant="caption" color="text.secondary">
            {translate('dashboard.capacity.hour', {
              from: formatDateTime(used.hour_start),
              to: formatDateTime(new Date(Date.parse(used.hour_start) + HOUR_MS)),
            })}
          </Typography>
        </>
      )}
    </>
  );
};

const TopTeams = ({ data }: { data: AdminDashboard['top_teams'] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const amount = usageAmountFormat(locale);
  if (data.teams.length === 0) return <Empty>{translate('dashboard.top.empty')}</Empty>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      {/* Narrow cells on phones, so that the three columns fit in 360 px. */}
      <Table size="small" aria-labelledby="dashboard-top" sx={{ '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('dashboard.top.team')}</TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {translate('dashboard.top.cpu')}
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {translate('dashboard.top.memory')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.teams.map((team) => (
            <TableRow key={team.id}>
              {/* Long names wrap between words (a word longer than the cell breaks, no more). */}
              <TableCell sx={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
                {team.name === null ? (
                  translate('dashboard.top.deleted', { id: team.id })
                ) : (
                  <MuiLink component={Link} to={`/admin/teams/${team.id}`}>
                    {team.fullname ?? team.name}
                  </MuiLink>
                )}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {amount.format(team.cpu_core_hours)}
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {amount.format(team.memory_gib_hours)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/**
 * /admin, the platform admins' overview (GET /api/admin/dashboard): pending requests by type,
 * active people, what ends soon, nodes by status, capacity used against contributed, the top
 * teams of the month. Every number links to the admin list filtered to what it counts.
 */
export const AdminDashboardPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [data, setData] = useState<AdminDashboard | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  useEffect(() => {
    let current = true;
    setError(null);
    dataProvider.getAdminDashboard().then(
      (answer) => current && setData(answer),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, attempt]);

  const loading = data === null;
  // Five cards in a grid (one, two, three columns), the top teams' table on a row of its own;
  // the capacity fills the rest of its row (all of it on two columns, two of three), no hole left.
  const span = { capacity: { xs: 'auto', md: '1 / -1', lg: 'span 2' }, top: '1 / -1' } as Record<string, unknown>;
  const card = (id: string, title: string, icon: ReactElement, body: (answer: AdminDashboard) => ReactElement) => (
    <Box sx={{ minWidth: 0, gridColumn: span[id] ?? 'auto' }}>
      <DashboardCard id={id} title={title} icon={icon} loading={loading}>
        {data && body(data)}
      </DashboardCard>
    </Box>
  );

  return (
    <Box sx={{ py: 2 }}>
      <Title title={translate('dashboard.title')} />
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <DashboardOutlinedIcon color="primary" aria-hidden />
        <Typography variant="h5" component="h1">
          {translate('dashboard.title')}
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('dashboard.intro')}
      </Typography>
      {error && (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={retry}>
              {translate('dashboard.retry')}
            </Button>
          }
        >
          {translate('dashboard.error')} {error}
        </Alert>
      )}
      {!(error && loading) && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
          {card('pending', translate('dashboard.pending.title'), <AssignmentOutlinedIcon />, (answer) => <PendingRequests data={answer.pending_requests} />)}
          {card('active', translate('dashboard.active.title'), <PeopleOutlineIcon />, (answer) => <ActivePeople data={answer.active_people} />)}
          {card('expiring', translate('dashboard.expiring.title', { days: data?.expiring_soon.days ?? 30 }), <EventBusyOutlinedIcon />, (answer) => (
            <ExpiringSoon data={answer.expiring_soon} />
          ))}
          {card('nodes', translate('dashboard.nodes.title'), <DnsOutlinedIcon />, (answer) => <NodesByStatus data={answer.nodes_by_status} />)}
          {card('capacity', translate('dashboard.capacity.title'), <MemoryOutlinedIcon />, (answer) => <Capacity data={answer.capacity} />)}
          {card('top', translate('dashboard.top.title'), <LeaderboardOutlinedIcon />, (answer) => <TopTeams data={answer.top_teams} />)}
        </Box>
      )}
    </Box>
  );
};
