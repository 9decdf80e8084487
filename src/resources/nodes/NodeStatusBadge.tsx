import { Chip, type ChipProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * How node statuses show: ok = Running (green), error = Error (red), warning = Warning
 * (orange), 'to install', 'installing', 'unknown', '' = Disabled. Other values are not shown.
 */
const BADGES: Record<string, { label: string; color: ChipProps['color']; variant?: ChipProps['variant'] }> = {
  ok: { label: 'nodes.status.ok', color: 'success' },
  error: { label: 'nodes.status.error', color: 'error' },
  warning: { label: 'nodes.status.warning', color: 'warning' },
  'to install': { label: 'nodes.status.to_install', color: 'info', variant: 'outlined' },
  installing: { label: 'nodes.status.installing', color: 'info' },
  unknown: { label: 'nodes.status.unknown', color: 'default' },
  '': { label: 'nodes.status.disabled', color: 'default', variant: 'outlined' },
};

export const nodeStatusBadge = (status: string | null | undefined) =>
  status === null || status === undefined ? undefined : BADGES[status];

export const NodeStatusBadge = ({ status }: { status: string | null | undefined }) => {
  const translate = useTranslate();
  const badge = nodeStatusBadge(status);
  if (!badge) return null;
  return (
    <Chip
      // A span: the badge sits inside text (a list row's primary line, a link), where a div is invalid HTML.
      component="span"
      size="small"
      label={translate(badge.label)}
      color={badge.color}
      variant={badge.variant ?? 'filled'}
      data-status={status}
    />
  );
};
