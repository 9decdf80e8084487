import { Box, Link, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { UserRequest } from '../../types';

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
};

/**
 * What the requester wrote in the request's form (kept in request.data), so that a platform
 * admin deciding on a new team sees its affiliation, website and reason before approving.
 */
export const RequestDetails = ({ request }: { request: UserRequest }) => {
  const translate = useTranslate();
  const data = request.data ?? {};
  const rows = (DETAIL_FIELDS[request.type] ?? [])
    .map(({ key, label }) => ({ key, label, value: typeof data[key] === 'string' ? (data[key] as string).trim() : '' }))
    .filter((row) => row.value !== '');
  if (rows.length === 0) return null;
  return (
    <Box
      component="dl"
      aria-label={translate('requests.details')}
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}
    >
      {rows.map(({ key, label, value }) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {translate(label)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
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
    </Box>
  );
};
