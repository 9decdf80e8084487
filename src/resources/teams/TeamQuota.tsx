import { Box, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { quantityNumber } from '../workspaces/QuotaUsage';
import type { TeamCredit, TeamQuotaCaps } from './types';

// The team quota on the team page (GET /api/tenants/{id} `quota`, `credit`): per resource what
// the workspaces hold of the cap (allocated / total, a bar), and what the team's Ready
// contributed nodes add to it. Nothing when the team has no quota.


export const TeamQuota = ({ quota, credit }: { quota?: TeamQuotaCaps; credit?: TeamCredit }) => {
  const translate = useTranslate();
  if (!quota) return null;
  const rows = (['cpu', 'memory', 'pods', 'storage'] as const).filter((resource) => quota[resource]);
  return (
    <Card component="section" aria-labelledby="team-quota-title">
      <CardContent>
        <Typography id="team-quota-title" variant="h6" component="h2" gutterBottom>
          {translate('teamQuota.team.title')}
        </Typography>
        <Stack spacing={1.5}>
          {rows.map((resource) => {
            const entry = quota[resource]!;
            const share = Math.min(100, (quantityNumber(entry.allocated) / quantityNumber(entry.hard)) * 100 || 0);
            return (
              <Box key={resource} data-testid={`team-quota-${resource}`}>
                <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
                  <Typography variant="body2">{translate(`teamQuota.ask.${resource}`)}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {translate('teamQuota.team.allocated_of', { allocated: entry.allocated, hard: entry.hard })}
                  </Typography>
                </Stack>
                <LinearProgress variant="determinate" value={share} aria-label={translate(`teamQuota.ask.${resource}`)} />
              </Box>
            );
          })}
          {credit && credit.nodes > 0 && (
            <Typography variant="body2" color="text.secondary">
              {translate('teamQuota.team.credit', { smart_count: credit.nodes, cpu: credit.cpu, memory: credit.memory })}
            </Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
};
