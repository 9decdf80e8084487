import GppMaybeOutlinedIcon from '@mui/icons-material/GppMaybeOutlined';
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import MarkEmailUnreadOutlinedIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import { Chip, Tooltip } from '@mui/material';
import type { ElementType } from 'react';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../utils/dates';

// Compact cells of the users list (AdminUserList): a flag as an icon whose label says it in
// words (and when), and '+N' standing for the rest of a list.

const Flag = ({ label, Icon, color }: { label: string; Icon: ElementType; color: 'success' | 'warning' }) => (
  <Tooltip title={label}>
    <Icon fontSize="small" color={color} role="img" aria-label={label} aria-hidden={false} />
  </Tooltip>
);

/** Email verified (envelope with a tick) and acceptable use policy accepted (shield with a tick), or not (warning colour, another icon). */
export const FlagIcons = ({ verifiedAt, acceptedAt }: { verifiedAt: string | null; acceptedAt: string | null }) => {
  const translate = useTranslate();
  return (
    <>
      {verifiedAt ? (
        <Flag label={translate('adminUsers.list.verified_on', { date: formatDateTime(verifiedAt) })} Icon={MarkEmailReadOutlinedIcon} color="success" />
      ) : (
        <Flag label={translate('adminUsers.list.not_verified')} Icon={MarkEmailUnreadOutlinedIcon} color="warning" />
      )}
      {acceptedAt ? (
        <Flag label={translate('adminUsers.list.accepted_on', { date: formatDateTime(acceptedAt) })} Icon={VerifiedUserOutlinedIcon} color="success" />
      ) : (
        <Flag label={translate('adminUsers.list.not_accepted')} Icon={GppMaybeOutlinedIcon} color="warning" />
      )}
    </>
  );
};

/** '+N' for the other teams or workspaces, naming them (with roles) on hover and to screen readers. */
export const MoreChip = ({ items, label }: { items: { id: number; name: string; role?: string | null }[]; label: string }) => {
  const translate = useTranslate();
  if (items.length === 0) return null;
  const names = items.map((item) => (item.role ? `${item.name} (${translate(`roles.${item.role}`, { _: item.role })})` : item.name)).join(', ');
  const text = translate(label, { smart_count: items.length, names });
  return (
    <Tooltip title={names}>
      <Chip size="small" label={`+${items.length}`} aria-label={text} />
    </Tooltip>
  );
};
