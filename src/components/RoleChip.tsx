import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A team or workspace role as a small badge (spec §6). */
export const RoleChip = ({ role }: { role?: string | null }) => {
  const translate = useTranslate();
  if (!role) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={role === 'owner' || role === 'manager' ? 'primary' : 'default'}
      label={translate(`roles.${role}`, { _: role })}
    />
  );
};
