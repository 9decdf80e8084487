import { Alert, AlertTitle, Box, List, ListItem, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';

// The home's list of the person's workspaces near a quota limit (GET /api/subnamespaces/near-limit:
// 80 % of pods, CPU, memory or storage or more, as the cluster counts them now). Nothing is shown
// when none is, or when the cluster cannot say: a home is no place for an error about a list
// the person did not ask for.

export const NearLimitWorkspaces = ({ enabled }: { enabled: boolean }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data = [] } = useQuery({
    queryKey: ['workspaces-near-limit'],
    queryFn: ({ signal }) => dataProvider.getWorkspacesNearLimit(signal),
    enabled,
    retry: false,
  });
  if (data.length === 0) return null;
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const full = data.some((workspace) => workspace.resources.some((item) => item.share >= 1));
  return (
    <Box component="section" aria-labelledby="near-limit-title" sx={{ mb: 2 }}>
      <Alert severity={full ? 'error' : 'warning'} sx={{ '& .MuiAlert-message': { width: '100%' } }}>
        <AlertTitle id="near-limit-title" component="h2" sx={{ typography: 'subtitle1', fontWeight: 600 }}>
          {translate('usage.near_limit.title')}
        </AlertTitle>
        <List dense disablePadding>
          {data.map((workspace) => (
            <ListItem key={workspace.id} disableGutters sx={{ display: 'block' }}>
              <Link to={`/workspaces/${workspace.id}`}>{workspace.label || workspace.name}</Link>
              {workspace.team && (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}
                  ({workspace.team.fullname || workspace.team.name})
                </Typography>
              )}
              <Typography variant="body2">
                {workspace.resources
                  .map((item) =>
                    translate('usage.near_limit.resource', {
                      resource: translate(`workspaces.quota.resources.${item.resource}`),
                      percent: percent.format(item.share),
                      used: item.used,
                      hard: item.hard,
                    }),
                  )
                  .join(' · ')}
              </Typography>
            </ListItem>
          ))}
        </List>
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {translate('usage.near_limit.hint')}
        </Typography>
      </Alert>
    </Box>
  );
};
