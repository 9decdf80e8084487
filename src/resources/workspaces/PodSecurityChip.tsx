import GppGoodOutlinedIcon from '@mui/icons-material/GppGoodOutlined';
import { Chip, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PodSecurity, PodSecurityLevel } from './types';

const STRICTNESS: PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];

/**
 * The Pod Security level the cluster enforces in the workspace (from the API's `pod_security`),
 * with what it forbids in a tooltip: members see why a pod was refused before they try.
 */
export const PodSecurityChip = ({ podSecurity }: { podSecurity?: PodSecurity | null }) => {
  const translate = useTranslate();
  if (!podSecurity || !STRICTNESS.includes(podSecurity.enforce)) return null;
  const { enforce, warn, version } = podSecurity;
  const level = translate(`workspaces.pod_security.levels.${enforce}`);
  const hint = [
    translate(`workspaces.pod_security.forbids.${enforce}`),
    STRICTNESS.indexOf(warn) > STRICTNESS.indexOf(enforce) ? translate('workspaces.pod_security.warns', { level: translate(`workspaces.pod_security.levels.${warn}`) }) : null,
    translate('workspaces.pod_security.standard', { version }),
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Tooltip title={hint} describeChild>
      {/* Focusable, so that keyboard users reach the explanation too. */}
      <Chip tabIndex={0} size="small" variant="outlined" icon={<GppGoodOutlinedIcon />} label={translate('workspaces.pod_security.label', { level })} />
    </Tooltip>
  );
};
