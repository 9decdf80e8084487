import { Alert, Box, Button, Card, CardContent, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import type { UsageAnswer } from '../../types';
import { usageAmountFormat } from '../../utils/usageAmounts';
import type { UsageMetric } from './UsageBarChart';

// Usage over the last 30 days, on the workspace and team pages (GET …/usage): the totals, a bar
// per day, and the same numbers as a table for those who do not read charts. Usage is what the
// leader has accounted (docs/usage.md); when it is behind (the cluster could not be read), the
// card says until when it is known rather than show the missing days as zero. Its notes are
// statuses, not alerts: nobody asked for them, and the page's own alerts stay the only ones.

const UsageBarChart = lazy(() => import('./UsageBarChart'));

/** Accounting runs every minute or so; from this far behind, the card says how far it got. */
const BEHIND_MS = 15 * 60 * 1000;

export interface UsageCardProps {
  /** Names the query in react-query's cache, e.g. ['workspace-usage', id]. */
  queryKey: readonly unknown[];
  load: (signal: AbortSignal) => Promise<UsageAnswer>;
}

export const UsageCard = ({ queryKey, load }: UsageCardProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const titleId = useId();
  const [metric, setMetric] = useState<UsageMetric>('cpu_core_hours');
  const [table, setTable] = useState(false);
  const { data, isPending, error, refetch } = useQuery({ queryKey: [...queryKey], queryFn: ({ signal }) => load(signal), retry: false });

  const number = usageAmountFormat(locale);
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const labels: Record<UsageMetric, string> = {
    cpu_core_hours: translate('usage.cpu_core_hours'),
    memory_gib_hours: translate('usage.memory_gib_hours'),
  };

  let body;
  if (isPending) {
    body = <Skeleton variant="rounded" height={220} aria-label={translate('usage.loading')} />;
  } else if (error || !data) {
    body = (
      <Alert severity="warning" role="status" action={<Button color="inherit" size="small" onClick={() => void refetch()}>{translate('usage.retry')}</Button>}>
        {translate('usage.load_error')}
      </Alert>
    );
  } else {
    // Behind what has happened so far, not behind the range's end: by day, the range ends at
    // the coming midnight, which no accounting has reached yet.
    const reachable = Math.min(Date.parse(data.to), Date.now());
    const behind = data.accounted_until !== null && reachable - Date.parse(data.accounted_until) > BEHIND_MS;
    body = (
      <>
        <Typography variant="body2" data-testid="usage-totals">
          {translate('usage.totals', {
            cpu: translate('usage.cpu_total', { smart_count: data.total.cpu_core_hours, amount: number.format(data.total.cpu_core_hours) }),
            memory: translate('usage.memory_total', { smart_count: data.total.memory_gib_hours, amount: number.format(data.total.memory_gib_hours) }),
          })}
        </Typography>
        {data.accounted_until === null && (
          <Alert severity="info" role="status" sx={{ mt: 1 }}>
            {translate('usage.none_yet')}
          </Alert>
        )}
        {behind && (
          <Alert severity="warning" role="status" sx={{ mt: 1 }}>
            {translate('usage.known_until', { date: dateTime.format(new Date(data.accounted_until!)) })}
          </Alert>
        )}
        {/* The chart or, on demand, the same numbers as a table: one of them at a time. */}
        {!table && (
          <>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={metric}
              onChange={(_, value: UsageMetric | null) => value && setMetric(value)}
              aria-label={translate('usage.metric')}
              sx={{ mt: 1.5, flexWrap: 'wrap' }}
            >
              <ToggleButton value="cpu_core_hours">{translate('usage.cpu')}</ToggleButton>
              <ToggleButton value="memory_gib_hours">{translate('usage.memory')}</ToggleButton>
            </ToggleButtonGroup>
            <Box sx={{ mt: 1 }}>
              <Suspense fallback={<Skeleton variant="rounded" height={220} />}>
                <UsageBarChart
                  series={data.series}
                  metric={metric}
                  label={labels[metric]}
                  formatPeriod={(start) => day.format(new Date(start))}
                  formatValue={(value) => number.format(value)}
                />
              </Suspense>
            </Box>
          </>
        )}
        <Button size="small" onClick={() => setTable((shown) => !shown)} sx={{ mt: table ? 1 : 0 }}>
          {translate(table ? 'usage.show_chart' : 'usage.show_table')}
        </Button>
        {table && (
          // Scrolls within the card: focusable, so that the keyboard scrolls it too.
          <Box sx={{ maxHeight: 280, overflow: 'auto', mt: 1 }} tabIndex={0} role="group" aria-labelledby={titleId}>
            <Table size="small" aria-labelledby={titleId}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('usage.day')}</TableCell>
                  <TableCell align="right">{labels.cpu_core_hours}</TableCell>
                  <TableCell align="right">{labels.memory_gib_hours}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.series.map((point) => (
                  <TableRow key={point.start}>
                    <TableCell>{day.format(new Date(point.start))}</TableCell>
                    <TableCell align="right">{number.format(point.cpu_core_hours)}</TableCell>
                    <TableCell align="right">{number.format(point.memory_gib_hours)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </>
    );
  }

  return (
    <Card component="section" aria-labelledby={titleId}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" gutterBottom>
          {translate('usage.title')}
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
};
