import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { isManagerRole, ourRole } from '../utils/roles';

/** A team or workspace role as a small badge; Laravel-era names shown as ours. */
export const RoleChip = ({ role: given }: { role?: string | null }) => {
  const translate = useTranslate();
  const role = ourRole(given);
  if (!role) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={isManagerRole(role) ? 'primary' : 'default'}
      label={translate(`roles.${role}`, { _: role })}
    />
  );
};
