import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { Suspense } from 'react';
import { Link } from 'react-router-dom';
import type { RenewalTarget } from '../../resources/requests/RenewalDialog';
import type { User } from '../../types';
import { formatLongDate } from '../../utils/dates';
import { lazyNamed } from '../../utils/lazyNamed';
import { isManagerRole } from '../../utils/roles';

// The renewal dialog (a form, with the text fields' code) loads only when this banner shows:
// most homes have nothing ending soon.
const RenewalButton = lazyNamed(() => import('../../resources/requests/RenewalDialog'), 'RenewalButton');

// The home's list of what ends soon (docs/lifecycle.md): the person's workspaces, and the teams
// they own, whose end is within the warning time or has passed (GET /user says which, with
// `status`). Each links to its page; those the person may renew have 'Request renewal'.

interface Ending {
  key: string;
  text: string;
  to: string;
  expired: boolean;
  renewal: RenewalTarget | null;
}

const ending = (status: string | undefined) => status === 'expiring' || status === 'expired';

export const EndingSoonBanner = ({ user }: { user: User }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const managedTeams = new Set((user.teams ?? []).filter((team) => isManagerRole(team.role)).map((team) => team.id));
  const items: Ending[] = [
    ...(user.teams ?? [])
      .filter((team) => team.role === 'owner' && ending(team.status) && team.expires_at)
      .map((team) => {
        const name = team.fullname || team.name;
        return {
          key: `team-${team.id}`,
          text: translate(`lifecycle.home.team_${team.status}`, { name, date: formatLongDate(team.expires_at, locale) }),
          to: `/teams/${encodeURIComponent(team.name)}`,
          expired: team.status === 'expired',
          renewal: { kind: 'team' as const, id: team.id, name },
        };
      }),
    ...(user.workspaces ?? [])
      .filter((workspace) => ending(workspace.status) && workspace.ends_at)
      .map((workspace) => {
        const name = workspace.label || workspace.name;
        const mayRenew = user.admin || workspace.role === 'manager' || (workspace.team ? managedTeams.has(workspace.team.id) : false);
        return {
          key: `workspace-${workspace.id}`,
          text: translate(`lifecycle.home.workspace_${workspace.status}`, { name, date: formatLongDate(workspace.ends_at, locale) }),
          to: `/workspaces/${workspace.id}`,
          expired: workspace.status === 'expired',
          renewal: mayRenew ? { kind: 'workspace' as const, id: workspace.id, name } : null,
        };
      }),
  ];
  if (items.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="ending-soon-title" sx={{ mb: 2 }}>
      <Alert severity={items.some((item) => item.expired) ? 'error' : 'warning'} sx={{ '& .MuiAlert-message': { width: '100%' } }}>
        <AlertTitle id="ending-soon-title" component="h2" sx={{ typography: 'subtitle1', fontWeight: 600 }}>
          {translate('lifecycle.home.title')}
        </AlertTitle>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('lifecycle.home.intro')}
        </Typography>
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {items.map((item) => (
            <Box
              component="li"
              key={item.key}
              sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}
            >
              <Typography variant="body2" sx={{ flex: '1 1 240px', overflowWrap: 'anywhere' }}>
                {item.text}
              </Typography>
              <Button component={Link} to={item.to} size="small" color="inherit" aria-label={`${translate('app.labelled', { label: translate('lifecycle.home.open') })} ${item.text}`}>
                {translate('lifecycle.home.open')}
              </Button>
              {item.renewal && (
                <Suspense fallback={null}>
                <RenewalButton
                  target={item.renewal}
                  size="small"
                  color="inherit"
                  variant="outlined"
                  aria-label={translate('lifecycle.renewal.button_for', { name: item.renewal.name })}
                />
                </Suspense>
              )}
            </Box>
          ))}
        </Stack>
      </Alert>
    </Box>
  );
};
