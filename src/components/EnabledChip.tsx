import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A user's enabled/disabled badge. */
export const EnabledChip = ({ enabled }: { enabled?: boolean | null }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={enabled === false ? 'error' : 'success'}
      label={translate(enabled === false ? 'teams.disabled' : 'teams.enabled')}
    />
  );
};
