import { Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../utils/dates';
import type { EndStatus } from './types';

/**
 * The "Ends" column of the admin teams and workspaces lists: the end date (a team's review date,
 * a workspace's own end date) and a chip once it is near (`expiring`, from the warning time
 * before it) or past (`expired`). A workspace whose team's review date comes first says so under
 * its own date, since that is when it ends.
 */
export const EndsCell = ({
  expiresAt,
  endsAt,
  status,
}: {
  expiresAt?: string | null;
  /** Workspaces: when it ends, its team's review date when that comes first. */
  endsAt?: string | null;
  status?: EndStatus;
}) => {
  const translate = useTranslate();
  const byTeam = endsAt !== undefined && endsAt !== null && endsAt !== expiresAt;
  return (
    <Stack spacing={0.25} sx={{ alignItems: 'flex-start' }}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
        <span>{expiresAt ? formatDateTime(expiresAt) : translate('admin_ends.never')}</span>
        {status === 'expired' && <Chip size="small" color="error" variant="outlined" label={translate('admin_ends.expired')} />}
        {status === 'expiring' && <Chip size="small" color="warning" variant="outlined" label={translate('admin_ends.expiring')} />}
      </Stack>
      {byTeam && (
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {translate('admin_ends.by_team', { date: formatDateTime(endsAt) })}
        </Typography>
      )}
    </Stack>
  );
};
