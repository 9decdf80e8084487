import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { UsageCard } from '../../components/usage/UsageCard';
import type { ConsoleDataProvider } from '../../dataProvider';
import { QuotaUsage } from '../workspaces/QuotaUsage';

// What the team's workspaces hold and use, for its members and platform admins: their quotas
// summed as the cluster counts them now (GET /api/tenants/{team}/quota), and the team's usage
// over the last 30 days (GET /api/tenants/{team}/usage).

export const TeamQuotaSums = ({ team }: { team: { id: number; name: string } }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data } = useQuery({ queryKey: ['team-quota', team.id], queryFn: ({ signal }) => dataProvider.getTeamQuota(team.id, signal), retry: false });
  if (!data || data.workspaces.length === 0) return null;
  return (
    <QuotaUsage
      quota={data.total}
      title="usage.team_quota.title"
      intro={translate('usage.team_quota.intro', { smart_count: data.workspaces.length })}
    />
  );
};

export const TeamUsage = ({ team }: { team: { id: number; name: string } }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return <UsageCard queryKey={['team-usage', team.id]} load={(signal) => dataProvider.getTeamUsage(team.id, signal)} />;
};
