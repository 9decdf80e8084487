import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import { Box, Card, CardContent, LinearProgress, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { errorMessage, fieldErrors } from '../../../httpClient';
import { FormError } from '../../../pages/auth/FormError';
import { endOfDayIso, formatDateTime } from '../../../utils/dates';
import type { LifecyclePreview } from './types';

/** How far ahead the page looks unless told: as the server's own default. */
const DEFAULT_DAYS = 30;

/**
 * /admin/lifecycle, "What ends next": what the leader's lifecycle pass will do from now until a
 * date (GET /api/admin/lifecycle/preview?until=; 30 days ahead unless changed), grouped by what
 * happens: warned, suspended, deleted, removed from a team. Each item links to its workspace,
 * team or person.
 */
export const WhatEndsNextPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [day, setDay] = useState(() => dayjs().add(DEFAULT_DAYS, 'day').format('YYYY-MM-DD'));
  const [preview, setPreview] = useState<LifecyclePreview | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<{ field: boolean; message: string } | null>(null);

  useEffect(() => {
    const endOfChosenDay = endOfDayIso(day);
    if (!endOfChosenDay) {
      setError({ field: true, message: translate('lifecycle_admin.preview.bad_date') });
      return;
    }
    let current = true;
    setLoading(true);
    dataProvider.getLifecyclePreview(endOfChosenDay).then(
      (answer) => {
        if (!current) return;
        setPreview(answer);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        const until = fieldErrors(failure)?.until;
        setError(until ? { field: true, message: String(until) } : { field: false, message: errorMessage(failure) });
        setPreview(null);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [dataProvider, day, translate]);

  const kind = (value: string) => translate(`lifecycle_admin.preview.kinds.${value}`, { _: value });
  const on = (date: string) => translate('lifecycle_admin.preview.on', { date: formatDateTime(date) });

  return (
    <Box sx={{ py: 2, maxWidth: 960 }}>
      <Title title={translate('lifecycle_admin.preview.title')} />
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <EventBusyOutlinedIcon color="primary" aria-hidden />
        <Typography variant="h5" component="h1">
          {translate('lifecycle_admin.preview.title')}
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('lifecycle_admin.preview.intro')} <Link to="/admin/settings">{translate('lifecycle_admin.preview.settings_link')}</Link>
      </Typography>
      <TextField
        type="date"
        label={translate('lifecycle_admin.preview.until')}
        value={day}
        onChange={(event) => setDay(event.target.value)}
        error={error?.field === true}
        helperText={error?.field ? translate(error.message, { _: error.message }) : translate('lifecycle_admin.preview.until_help')}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ mb: 2, minWidth: 240 }}
      />
      {loading && <LinearProgress aria-label={translate('app.loading')} sx={{ mb: 2 }} />}
      {error && !error.field && <FormError message={error.message} />}
      {preview && (
        <Stack spacing={2}>
          <Group name="warned" title={translate('lifecycle_admin.preview.groups.warned')} help={translate('lifecycle_admin.preview.help.warned')} count={preview.warnings.length}>
            {preview.warnings.map((item) => (
              <Item key={`${item.kind}:${item.subject_type}:${item.subject_id}`} secondary={`${kind(item.kind)} · ${on(item.date)}`}>
                <Link to={`/admin/${item.subject_type === 'team' ? 'teams' : 'workspaces'}/${item.subject_id}`}>{item.label}</Link>
                {item.team && ` (${item.team})`}
              </Item>
            ))}
          </Group>
          <Group name="suspended" title={translate('lifecycle_admin.preview.groups.suspended')} help={translate('lifecycle_admin.preview.help.suspended')} count={preview.suspensions.length}>
            {preview.suspensions.map((item) => (
              <Item key={item.workspace_id} secondary={on(item.date)}>
                <Link to={`/admin/workspaces/${item.workspace_id}`}>{item.label}</Link>
                {' · '}
                <Link to={`/admin/teams/${item.team_id}`}>{translate('lifecycle_admin.preview.its_team')}</Link>
              </Item>
            ))}
          </Group>
          <Group name="deleted" title={translate('lifecycle_admin.preview.groups.deleted')} help={translate('lifecycle_admin.preview.help.deleted')} count={preview.deletions.length}>
            {preview.deletions.map((item) => (
              <Item key={item.workspace_id} secondary={on(item.date)}>
                <Link to={`/admin/workspaces/${item.workspace_id}`}>{item.label}</Link>
                {` (${item.team})`}
              </Item>
            ))}
          </Group>
          <Group name="removed" title={translate('lifecycle_admin.preview.groups.removed')} help={translate('lifecycle_admin.preview.help.removed')} count={preview.removals.length}>
            {preview.removals.map((item) => (
              <Item key={`${item.team_id}:${item.user_id}`} secondary={on(item.date)}>
                <Link to={`/admin/users/${item.user_id}`}>{item.name}</Link>
                {` ${translate('lifecycle_admin.preview.from_team')} `}
                <Link to={`/admin/teams/${item.team_id}`}>{item.team}</Link>
              </Item>
            ))}
          </Group>
        </Stack>
      )}
    </Box>
  );
};

/** One kind of outcome: a titled card with its count and its items (or "Nothing."). */
const Group = ({ name, title, help, count, children }: { name: string; title: string; help: string; count: number; children: ReactNode }) => {
  const translate = useTranslate();
  const id = `what-ends-${name}`;
  return (
    <Card component="section" aria-labelledby={id} variant="outlined">
      <CardContent>
        <Typography id={id} variant="h6" component="h2">
          {`${title} (${count})`}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {help}
        </Typography>
        {count === 0 ? (
          <Typography sx={{ mt: 1 }}>{translate('lifecycle_admin.preview.nothing')}</Typography>
        ) : (
          <List dense aria-labelledby={id}>
            {children}
          </List>
        )}
      </CardContent>
    </Card>
  );
};

const Item = ({ children, secondary }: { children: ReactNode; secondary: string }) => (
  <ListItem disableGutters>
    <ListItemText primary={children} secondary={secondary} />
  </ListItem>
);
