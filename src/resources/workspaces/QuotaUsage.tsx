import { Box, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import type { WorkspaceQuotaUsage } from './types';

// The workspace quota as the cluster counts it (GET /api/subnamespaces/{id} `quota`): each
// resource as used / hard with a bar. Usage the cluster could not give now reads "unknown",
// with no bar: a zero that is not true would tell people they have room they may not have.

const RESOURCES = ['pods', 'cpu', 'memory', 'storage'] as const;

const SUFFIXES: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** A Kubernetes quantity as a number ("300m" → 0.3, "16Gi" → 17179869184), or NaN. */
export function quantityNumber(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(quantity.trim());
  return match ? Number(match[1]) * SUFFIXES[match[2] ?? '']! : Number.NaN;
}

/** `title`: a translation key (a workspace's "Quota" unless told); `intro`: a line under it. */
export const QuotaUsage = ({ quota, title = 'workspaces.quota.title', intro }: { quota?: WorkspaceQuotaUsage | null; title?: string; intro?: string }) => {
  const translate = useTranslate();
  const titleId = useId();
  if (!quota) return null;
  return (
    <Card component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {translate(title)}
        </Typography>
        {intro && (
          <Typography variant="body2" color="text.secondary">
            {intro}
          </Typography>
        )}
        {RESOURCES.map((name) => {
          const entry = quota[name];
          if (!entry) return null;
          const label = translate(`workspaces.quota.resources.${name}`);
          const known = entry.used !== null;
          const hard = quantityNumber(entry.hard);
          const used = known ? quantityNumber(entry.used!) : Number.NaN;
          const percent = hard > 0 && Number.isFinite(used) ? Math.min(100, Math.round((used / hard) * 100)) : hard === 0 && used > 0 ? 100 : 0;
          const text = known ? translate('workspaces.quota.used_of', { used: entry.used, hard: entry.hard }) : translate('workspaces.quota.unknown', { hard: entry.hard });
          return (
            <Box key={name} sx={{ mt: 1.5 }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
                <Typography variant="body2">{label}</Typography>
                <Typography variant="body2" color="text.secondary" data-testid={`quota-${name}`}>
                  {text}
                </Typography>
              </Box>
              {known && (
                <LinearProgress
                  variant="determinate"
                  value={percent}
                  color={percent >= 90 ? 'error' : percent >= 75 ? 'warning' : 'primary'}
                  aria-label={`${label}: ${text}`}
                  sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
                />
              )}
            </Box>
          );
        })}
      </CardContent>
    </Card>
  );
};
