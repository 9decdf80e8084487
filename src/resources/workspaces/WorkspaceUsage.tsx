import { useDataProvider } from 'react-admin';
import { UsageCard } from '../../components/usage/UsageCard';
import type { ConsoleDataProvider } from '../../dataProvider';

/** The workspace's usage over the last 30 days (GET /api/subnamespaces/{id}/usage). */
export const WorkspaceUsage = ({ workspaceId }: { workspaceId: number }) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return <UsageCard queryKey={['workspace-usage', workspaceId]} load={(signal) => dataProvider.getWorkspaceUsage(workspaceId, signal)} />;
};
