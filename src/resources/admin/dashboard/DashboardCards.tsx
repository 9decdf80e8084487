import { Box, Card, CardContent, CardHeader, LinearProgress, Link as MuiLink, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

// The overview's building blocks: a card, a number that links to its list, a used/total bar.

/** A list's URL with react-admin's `filter` parameter (the list reads its filters from it). */
export const listUrl = (path: string, filter: Record<string, unknown>) => `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

export const useNumber = () => {
  const [locale] = useLocaleState();
  return (value: number, digits = 0) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
};

/** A titled card (a section named by its heading); skeleton lines while loading. */
export const DashboardCard = ({ id, title, icon, loading, children }: { id: string; title: string; icon: ReactNode; loading: boolean; children?: ReactNode }) => (
  <Card component="section" aria-labelledby={`dashboard-${id}`} aria-busy={loading} sx={{ height: '100%', minWidth: 0 }}>
    <CardHeader
      avatar={icon}
      title={
        <Typography id={`dashboard-${id}`} variant="h6" component="h2">
          {title}
        </Typography>
      }
      sx={{ pb: 0, '& .MuiCardHeader-avatar svg': { color: 'primary.main' } }}
    />
    <CardContent>
      {loading ? (
        <Stack spacing={1} data-testid="dashboard-skeleton">
          <Skeleton variant="text" width="40%" height={40} />
          <Skeleton variant="text" width="80%" />
          <Skeleton variant="text" width="60%" />
        </Stack>
      ) : (
        children
      )}
    </CardContent>
  </Card>
);

/** A count and what it counts, the whole line a link to the filtered list. */
export const CountLink = ({ to, value, label, big = false }: { to: string; value: number; label: ReactNode; big?: boolean }) => {
  const number = useNumber();
  return (
    <MuiLink
      component={Link}
      to={to}
      underline="hover"
      sx={{ display: 'flex', alignItems: 'baseline', gap: 1, py: 0.5, minWidth: 0, color: 'text.primary', '&:hover .count, &:focus-visible .count': { color: 'primary.main' } }}
    >
      <Typography className="count" component="span" variant={big ? 'h4' : 'h6'} sx={{ fontWeight: 600, minWidth: '3rem', color: 'primary.dark' }}>
        {number(value)}
      </Typography>
      <Typography component="span" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {label}
      </Typography>
    </MuiLink>
  );
};

/** Used of a total with a bar; a percentage people can read (the bar is labelled). */
export const UsageBar = ({ label, used, total, text }: { label: string; used: number; total: number; text: string }) => {
  const translate = useTranslate();
  const number = useNumber();
  const percent = total > 0 ? Math.round((used / total) * 100) : 0;
  return (
    <Box sx={{ mb: 1.5 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 1 }}>
        <Typography variant="subtitle2">{label}</Typography>
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      </Stack>
      {/* A meter, not a progress bar: it measures a share, nothing is loading. */}
      <LinearProgress
        role="meter"
        variant="determinate"
        value={Math.min(percent, 100)}
        color={percent >= 90 ? 'error' : percent >= 75 ? 'warning' : 'primary'}
        aria-label={label}
        aria-valuetext={translate('dashboard.capacity.used_of', { percent: number(percent) })}
        sx={{ height: 8, borderRadius: 1, mt: 0.5 }}
      />
      <Typography variant="caption" color="text.secondary">
        {translate('dashboard.capacity.used_of', { percent: number(percent) })}
      </Typography>
    </Box>
  );
};
