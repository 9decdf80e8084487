import { Alert, Box, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { TeamQuotaAnswer } from './types';
import { UsageCard } from '../../components/usage/UsageCard';
import type { ConsoleDataProvider } from '../../dataProvider';
import { QuotaUsage } from '../workspaces/QuotaUsage';
import { usageAmountFormat } from '../../utils/usageAmounts';

// What the team's workspaces hold and use, for its members and platform admins: their quotas
// summed as the cluster counts them now (GET /api/tenants/{team}/quota), and the team's usage
// over the last 30 days (GET /api/tenants/{team}/usage).

export const TeamQuotaSums = ({ team }: { team: { id: number; name: string } }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data } = useQuery({ queryKey: ['team-quota', team.id], queryFn: ({ signal }) => dataProvider.getTeamQuota(team.id, signal), retry: false });
  if (!data) return null;
  return (
    <>
      {data.allocation && <AllocationCard allocation={data.allocation} />}
      {data.workspaces.length > 0 && (
        <QuotaUsage quota={data.total} title="usage.team_quota.title" intro={translate('usage.team_quota.intro', { smart_count: data.workspaces.length })} />
      )}
    </>
  );
};

/** The team's CPU allocation this month: used / allocated with a bar, and what happens once it is used up. */
const AllocationCard = ({ allocation }: { allocation: NonNullable<TeamQuotaAnswer['allocation']> }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const number = usageAmountFormat(locale);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const percent = allocation.core_hours > 0 ? Math.min(100, Math.round((allocation.used / allocation.core_hours) * 100)) : 100;
  const text = translate('usage.allocation.used_of', { used: number.format(allocation.used), allocation: number.format(allocation.core_hours) });
  return (
    <Card component="section" aria-labelledby="team-allocation-title">
      <CardContent>
        <Typography id="team-allocation-title" variant="h6" component="h2" gutterBottom>
          {translate('usage.allocation.title', { month: month.format(new Date(allocation.period_start)) })}
        </Typography>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
          <Typography variant="body2">{translate('usage.cpu_core_hours')}</Typography>
          <Typography variant="body2" color="text.secondary" data-testid="allocation-used">
            {text}
          </Typography>
        </Box>
        <LinearProgress
          variant="determinate"
          value={percent}
          color={percent >= 100 ? 'error' : percent >= 90 ? 'warning' : 'primary'}
          aria-label={text}
          sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('usage.allocation.renews', { date: date.format(new Date(allocation.period_end)) })}
        </Typography>
        {allocation.used_up_at && (
          <Alert severity="error" role="status" sx={{ mt: 1 }}>
            {translate('usage.allocation.used_up', { date: date.format(new Date(allocation.period_end)) })}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
};

export const TeamUsage = ({ team }: { team: { id: number; name: string } }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return <UsageCard queryKey={['team-usage', team.id]} load={(signal) => dataProvider.getTeamUsage(team.id, signal)} />;
};
