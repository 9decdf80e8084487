import { Box, Link, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import type { UserRequest } from '../../types';
import { formatLongDate } from '../../utils/dates';

/** The fields of a request's form a decider needs, in the order the requester filled them. */
const DETAIL_FIELDS: Partial<Record<string, { key: string; label: string }[]>> = {
  CreateTeam: [
    { key: 'affiliation', label: 'teams.fields.affiliation' },
    { key: 'country', label: 'teams.fields.country' },
    { key: 'url', label: 'teams.fields.url' },
    { key: 'joining_category', label: 'teams.fields.joining_category' },
    { key: 'joining_reason', label: 'teams.fields.joining_reason' },
  ],
  CreateWorkspace: [{ key: 'description', label: 'workspaces.fields.description' }],
  // A renewal: what is asked (days more, or until a date) and the end it would move.
  RenewWorkspace: [
    { key: 'days', label: 'lifecycle.details.days' },
    { key: 'until', label: 'lifecycle.details.until' },
    { key: 'expires_at', label: 'lifecycle.details.current_end' },
  ],
  RenewTeam: [{ key: 'expires_at', label: 'lifecycle.details.current_review' }],
};

/** Fields holding a date, shown as one ('30 June 2027'); a null one as 'None'. */
const DATE_FIELDS = new Set(['until', 'expires_at']);

/**
 * What the requester wrote in the request's form (kept in request.data), so that a platform
 * admin deciding on a new team sees its affiliation, website and reason before approving.
 */
export const RequestDetails = ({ request }: { request: UserRequest }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const data = request.data ?? {};
  const text = (key: string): string => {
    const value = data[key];
    if (DATE_FIELDS.has(key)) {
      if (typeof value === 'string') return formatLongDate(value, locale);
      // A current end that is null: none (only said where the request carries the field).
      return value === null && key === 'expires_at' ? translate('lifecycle.details.none') : '';
    }
    if (typeof value === 'number') return String(value);
    return typeof value === 'string' ? value.trim() : '';
  };
  const rows = [
    ...(DETAIL_FIELDS[request.type] ?? []).map(({ key, label }) => ({ key, label, value: text(key) })),
    // More quota: each resource asked for, from its current value; then until when.
    ...(request.type === 'QuotaIncrease'
      ? [
          ...quotaChanges(data).map(({ resource, current, asked }) => ({
            key: `quota.${resource}`,
            label: `workspaces.quota.resources.${resource}`,
            value: `${current ?? '?'} → ${asked}`,
          })),
          { key: 'until', label: 'teamQuota.details.until', value: text('until') },
        ]
      : []),
  ].filter((row) => row.value !== '');
  const adminsDecide = (request.type === 'RenewWorkspace' || request.type === 'QuotaIncrease') && data.admins_decide === true;
  if (rows.length === 0 && !adminsDecide) return null;
  return (
    <Box
      component="dl"
      aria-label={translate('requests.details')}
      // The label column is at most 40% wide and its labels wrap; the values take the rest
      // (minmax(0, …): a long URL breaks instead of widening the dialog). On phones each label
      // sits above its value: side by side, a 360 px dialog left the values a few letters.
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'fit-content(40%) minmax(0, 1fr)' },
        columnGap: 2,
        rowGap: { xs: 0, sm: 0.5 },
        m: 0,
        mb: 2,
        '& dd': { mb: { xs: 1, sm: 0 } },
      }}
    >
      {rows.map(({ key, label, value }) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {translate(label)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'break-word' }}>
            {key === 'url' && /^https?:\/\//i.test(value) ? (
              <Link href={value} target="_blank" rel="noopener noreferrer">
                {value}
              </Link>
            ) : key === 'joining_category' ? (
              translate(`teams.categories.${value}`, { _: value })
            ) : (
              value
            )}
          </Typography>
        </Box>
      ))}
      {adminsDecide && (
        <Typography variant="body2" color="text.secondary" sx={{ gridColumn: '1 / -1' }}>
          {translate(request.type === 'QuotaIncrease' ? 'teamQuota.details.admins_decide' : 'lifecycle.details.admins_decide')}
        </Typography>
      )}
    </Box>
  );
};

const QUOTA_RESOURCES = ['cpu', 'memory', 'pods', 'storage'] as const;

/** What a QuotaIncrease asks for (`data.quota`) beside what the workspace has (`data.current`). */
function quotaChanges(data: Record<string, unknown>) {
  const asked = (data.quota ?? {}) as Record<string, unknown>;
  const current = (data.current ?? {}) as Record<string, unknown>;
  return QUOTA_RESOURCES.filter((resource) => asked[resource] !== undefined && asked[resource] !== null).map((resource) => ({
    resource,
    asked: String(asked[resource]),
    current: current[resource] === undefined || current[resource] === null ? null : String(current[resource]),
  }));
}

/**
 * What a workspace renewal or a request for more quota asks for, beside its object in the
 * lists: '+90 days', 'until 30 June 2027', or 'CPU (requests): 8 → 12'. Nothing for other requests.
 */
export const RenewalAsked = ({ request }: { request: UserRequest }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const data = request.data ?? {};
  if (request.type === 'QuotaIncrease') {
    const changes = quotaChanges(data);
    if (changes.length === 0) return null;
    return (
      <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
        {changes.map(({ resource, current, asked }) => `${translate('app.labelled', { label: translate(`workspaces.quota.resources.${resource}`) })} ${current ?? '?'} → ${asked}`).join(' · ')}
      </Typography>
    );
  }
  if (request.type !== 'RenewWorkspace') return null;
  const asked =
    typeof data.days === 'number'
      ? translate('lifecycle.details.days_more', { smart_count: data.days })
      : typeof data.until === 'string'
        ? translate('lifecycle.details.until_date', { date: formatLongDate(data.until, locale) })
        : null;
  if (!asked) return null;
  return (
    <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
      {asked}
    </Typography>
  );
};
