import DownloadIcon from '@mui/icons-material/GetApp';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Title, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { errorMessage, fieldErrors, serverMessage } from '../../../httpClient';
import type { AdminUsageQuery } from '../../../types';
import { saveBlob } from '../../../utils/download';
import { usageAmountFormat } from '../../../utils/usageAmounts';

// /admin/usage: where the testbed's capacity went (GET /api/admin/usage): per team, workspace or
// person, the CPU core-hours and memory GiB-hours over a range, biggest first, and the same rows
// per day or month as CSV. The server checks the range (at most 400 days, in order) and answers
// 422 per field; the page shows its messages under the fields.

const DEFAULT_DAYS = 30;

export const AdminUsagePage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [query, setQuery] = useState<AdminUsageQuery>(() => ({
    group_by: 'team',
    granularity: 'month',
    from: dayjs().subtract(DEFAULT_DAYS, 'day').format('YYYY-MM-DD'),
    to: dayjs().format('YYYY-MM-DD'),
  }));
  const [downloading, setDownloading] = useState(false);
  const { data, error, isFetching } = useQuery({
    queryKey: ['admin-usage', query],
    queryFn: ({ signal }) => dataProvider.getAdminUsage(query, signal),
    retry: false,
  });
  const errors = error ? (fieldErrors(error) ?? {}) : {};
  const fieldError = (name: string) => {
    const value = (errors as Record<string, unknown>)[name];
    return value ? String(Array.isArray(value) ? value[0] : value) : undefined;
  };
  const otherError = error && Object.keys(errors).length === 0 ? errorMessage(error) : null;

  // Totals over the range, biggest CPU first: the rows come per period.
  const totals = new Map<string, { name: string; cpu: number; memory: number }>();
  for (const row of data?.data ?? []) {
    const key = String(row.id);
    const entry = totals.get(key) ?? { name: row.name ?? translate('admin_usage.deleted', { id: row.id }), cpu: 0, memory: 0 };
    entry.cpu += row.cpu_core_hours;
    entry.memory += row.memory_gib_hours;
    totals.set(key, entry);
  }
  const rows = [...totals.entries()].map(([key, entry]) => ({ key, ...entry })).sort((a, b) => b.cpu - a.cpu);
  const number = usageAmountFormat(locale);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  const download = async () => {
    setDownloading(true);
    try {
      const file = await dataProvider.exportAdminUsage(query);
      saveBlob(file.blob, file.filename);
    } catch (failure) {
      const message = serverMessage(failure, 'resources.export.error');
      notify(translate(message, { _: message }), { type: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  const set = (field: keyof AdminUsageQuery) => (event: { target: { value: string } }) => setQuery((current) => ({ ...current, [field]: event.target.value }));

  return (
    <Box sx={{ py: 2 }}>
      <Title title={translate('admin_usage.title')} />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('admin_usage.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('admin_usage.intro')}
      </Typography>
      <Card>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap', mb: 2 }}>
            <TextField select size="small" label={translate('admin_usage.group_by')} value={query.group_by} onChange={set('group_by')} sx={{ minWidth: 180 }} error={!!fieldError('group_by')} helperText={fieldError('group_by')}>
              <MenuItem value="team">{translate('admin_usage.groups.team')}</MenuItem>
              <MenuItem value="workspace">{translate('admin_usage.groups.workspace')}</MenuItem>
              <MenuItem value="user">{translate('admin_usage.groups.user')}</MenuItem>
            </TextField>
            <TextField type="date" size="small" label={translate('admin_usage.from')} value={query.from} onChange={set('from')} slotProps={{ inputLabel: { shrink: true } }} error={!!fieldError('from')} helperText={fieldError('from')} />
            <TextField type="date" size="small" label={translate('admin_usage.to')} value={query.to} onChange={set('to')} slotProps={{ inputLabel: { shrink: true } }} error={!!fieldError('to')} helperText={fieldError('to')} />
            <TextField select size="small" label={translate('admin_usage.csv_periods')} value={query.granularity} onChange={set('granularity')} sx={{ minWidth: 160 }}>
              <MenuItem value="day">{translate('admin_usage.granularity.day')}</MenuItem>
              <MenuItem value="month">{translate('admin_usage.granularity.month')}</MenuItem>
            </TextField>
            <Button variant="outlined" size="small" onClick={download} disabled={downloading || !data || rows.length === 0} startIcon={<DownloadIcon />} sx={{ alignSelf: { sm: 'center' } }}>
              {translate('admin_usage.export')}
            </Button>
          </Stack>
          {isFetching && <LinearProgress aria-label={translate('admin_usage.loading')} sx={{ mb: 1 }} />}
          {otherError && <Alert severity="error">{translate(otherError, { _: otherError })}</Alert>}
          {data && data.accounted_until === null && (
            <Alert severity="info" role="status">
              {translate('usage.none_yet')}
            </Alert>
          )}
          {data && data.accounted_until !== null && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {translate('admin_usage.accounted_until', { date: dateTime.format(new Date(data.accounted_until)) })}
            </Typography>
          )}
          {data && data.accounted_until !== null && rows.length === 0 && <Typography sx={{ py: 2 }}>{translate('admin_usage.empty')}</Typography>}
          {rows.length > 0 && (
            <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="group" aria-label={translate('admin_usage.title')}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate(`admin_usage.groups.${query.group_by}`)}</TableCell>
                    <TableCell align="right">{translate('usage.cpu_core_hours')}</TableCell>
                    <TableCell align="right">{translate('usage.memory_gib_hours')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row.key}>
                      <TableCell>{row.name}</TableCell>
                      <TableCell align="right">{number.format(row.cpu)}</TableCell>
                      <TableCell align="right">{number.format(row.memory)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
