import { Box, Link as MuiLink, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../utils/dates';
import type { AdminNodeRecord } from '../../nodes/types';
import { formatByteQuantity, nodeAddresses } from './parts';

// The cells of /admin/nodes, short enough that the table fits beside the menu on a 1280 px
// screen: the addresses under the name (as the users list puts the email under the name), and
// the capacity and system info folded into one "Machine" column of two lines. Every figure is
// still on the node's own page (Capacity, SystemInfo and the conditions there).

/** A node not in the cluster yet has no cluster page: its console page (/nodes/{id}) stands in. */
export const notInstalled = (record: AdminNodeRecord) => ['to install', 'installing'].includes(record.status?.state ?? '') && record.node_id != null;

export const adminNodePath = (name: string) => `/admin/nodes/${encodeURIComponent(name)}`;

export const NodeNameLink = ({ record }: { record: AdminNodeRecord }) => (
  <MuiLink component={Link} to={notInstalled(record) ? `/nodes/${record.node_id}` : adminNodePath(record.name)} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
    {record.name}
  </MuiLink>
);

/** The node's network addresses (its Hostname address repeats its name: left out), one a line. */
export const NodeAddressLines = ({ record }: { record: AdminNodeRecord }) => {
  const addresses = nodeAddresses(record).filter((item) => item.type !== 'Hostname');
  if (addresses.length === 0) return null;
  return (
    <Box data-testid="node-addresses" sx={{ typography: 'caption', color: 'text.secondary', fontFamily: 'monospace' }}>
      {addresses.map((item) => (
        <Box key={`${item.type} ${item.address}`} title={item.type} sx={{ overflowWrap: 'anywhere' }}>
          {item.address}
        </Box>
      ))}
    </Box>
  );
};

/** The name cell: the link, the addresses under it. */
export const NodeNameCell = ({ record }: { record: AdminNodeRecord }) => (
  <Box sx={{ minWidth: 0 }}>
    <NodeNameLink record={record} />
    <NodeAddressLines record={record} />
  </Box>
);

/**
 * What the machine is, in two lines: CPU and memory; the OS image and architecture. A node
 * not in the cluster yet has neither: its type, and that it is not in the cluster.
 */
export const MachineSummary = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  const capacity = record.status?.capacity ?? {};
  const info = record.status?.nodeInfo ?? {};
  const cpu = capacity.cpu;
  const memory = capacity.memory;
  const system = [info.osImage, info.architecture].filter(Boolean).join(' · ');
  const type = record.type ? translate(`nodes.types.${record.type}`, { _: record.type }) : '';
  if (!cpu && !memory && !system) {
    return (
      <Box sx={{ typography: 'body2' }}>
        {type && <div>{type}</div>}
        <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
          {translate('nodes.admin.not_in_cluster')}
        </Typography>
      </Box>
    );
  }
  return (
    <Box sx={{ typography: 'body2' }}>
      <div>
        {translate('nodes.admin.capacity_summary', {
          cpu: cpu ?? '—',
          memory: memory ? formatByteQuantity(String(memory)) : '—',
        })}
      </div>
      {system && (
        <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }} title={info.kubeletVersion ? `kubelet ${info.kubeletVersion}` : undefined}>
          {system}
        </Typography>
      )}
    </Box>
  );
};

/**
 * When the node was last heard from: its agent's last call to the console or its kubelet's
 * last heartbeat in the cluster, whichever is later (a cluster Node the console did not add
 * has only the second); null when neither ever came.
 */
export const lastSeen = (record: AdminNodeRecord): string | null => {
  const times = [record.lastActive, ...(record.status?.conditions ?? []).map((condition) => condition.lastHeartbeatTime)]
    .filter((value): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value)));
  if (times.length === 0) return null;
  return times.reduce((latest, value) => (Date.parse(value) > Date.parse(latest) ? value : latest));
};

/** lastSeen as lists write dates; 'Never' when the node was never heard from. */
export const LastSeen = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  const seen = lastSeen(record);
  return <>{seen ? formatDateTime(seen) : translate('nodes.never')}</>;
};
