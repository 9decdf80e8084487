import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { errorMessage } from '../../../httpClient';
import type { AdminNodeRecord, NodeAddress } from '../../nodes/types';

/** The spec's misspelt `status.addesses`, or `status.addresses` from servers that fixed it. */
export const nodeAddresses = (record: AdminNodeRecord): NodeAddress[] =>
  record.status?.addesses ?? record.status?.addresses ?? [];

export const CAPACITY_KEYS = ['cpu', 'memory', 'ephemeral-storage', 'pods'] as const;
export const SYSTEM_INFO_KEYS = ['architecture', 'operatingSystem', 'osImage', 'kubeletVersion'] as const;

/** Lines of `label: value` (a small key/value list inside a table cell or a card). */
export const KeyValues = ({
  entries,
  labelledBy,
  nowrap = false,
}: {
  entries: [label: string, value: React.ReactNode][];
  labelledBy?: string;
  /** Values stay on one line (addresses, quantities). */
  nowrap?: boolean;
}) => (
  <Box
    component="dl"
    aria-labelledby={labelledBy}
    sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1, rowGap: 0.25, fontSize: '0.85rem' }}
  >
    {entries.map(([label, value]) => (
      <Box key={label} sx={{ display: 'contents' }}>
        <Box component="dt" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
          {label}
        </Box>
        <Box component="dd" sx={{ m: 0, whiteSpace: nowrap ? 'nowrap' : 'normal' }}>
          {value === null || value === undefined || value === '' ? '—' : value}
        </Box>
      </Box>
    ))}
  </Box>
);

export const Addresses = ({ record }: { record: AdminNodeRecord }) => (
  <KeyValues nowrap entries={nodeAddresses(record).map((item) => [item.type, <code key={item.address}>{item.address}</code>])} />
);

const BINARY_SUFFIXES: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/**
 * A Kubernetes byte quantity ('24683656Ki', '100Gi', '5e9', '128974848') as people read it
 * ('23.5 GiB'); anything it does not recognise is returned unchanged.
 */
export function formatByteQuantity(quantity: string): string {
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/.exec(quantity.trim());
  if (!match) return quantity;
  const suffix = match[2] ?? '';
  const bytes = Number(match[1]) * (BINARY_SUFFIXES[suffix] ?? DECIMAL_SUFFIXES[suffix] ?? 1);
  if (!Number.isFinite(bytes)) return quantity;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${units[unit]}`;
}

const BYTE_KEYS: readonly string[] = ['memory', 'ephemeral-storage'];

export const Capacity = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  const capacity = record.status?.capacity ?? {};
  return (
    <KeyValues
      nowrap
      entries={CAPACITY_KEYS.map((key) => {
        const raw = capacity[key];
        // Memory and storage read as GiB; the exact quantity stays in the tooltip.
        const value =
          raw && BYTE_KEYS.includes(key) ? (
            <span key={key} title={String(raw)}>
              {formatByteQuantity(String(raw))}
            </span>
          ) : (
            (raw ?? null)
          );
        return [translate(`nodes.capacity.${key}`), value];
      })}
    />
  );
};

export const SystemInfo = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  const info = record.status?.nodeInfo ?? {};
  return <KeyValues entries={SYSTEM_INFO_KEYS.map((key) => [translate(`nodes.system.${key}`), info[key] ?? null])} />;
};

/** 503 (cluster unreachable) or any other failure: the server's message and 'Retry'. */
export const ClusterError = ({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying?: boolean }) => {
  const translate = useTranslate();
  const message = errorMessage(error);
  const status = (error as { status?: number } | null)?.status;
  return (
    <Alert
      severity={status === 503 ? 'warning' : 'error'}
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
          {translate('nodes.retry')}
        </Button>
      }
    >
      <Stack spacing={0.5}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {translate(status === 503 ? 'nodes.admin.cluster_unreachable' : 'nodes.admin.load_error')}
        </Typography>
        <Typography variant="body2">{translate(message, { _: message })}</Typography>
      </Stack>
    </Alert>
  );
};

/** The list's error slot: the failure with a retry that refetches the list. */
export const ListClusterError = () => {
  const { error, refetch, isFetching } = useListContext();
  return <ClusterError error={error} onRetry={() => void refetch()} retrying={isFetching} />;
};
