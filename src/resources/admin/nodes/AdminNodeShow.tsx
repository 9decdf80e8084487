import BlockIcon from '@mui/icons-material/Block';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link as MuiLink,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading, Title, useDataProvider, useGetOne, useNotify, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { Link, useParams } from 'react-router-dom';

import { errorMessage } from '../../../httpClient';
import { ResponsiveColumns } from '../../../layout/ResponsiveColumns';
import { formatDateTime } from '../../../utils/dates';
import { NodeActivityCard, NodeActivityTable } from '../../nodes/NodeActivity';
import { useNodeTypeLabel } from '../../nodes/nodeParts';
import { NodeStatusBadge } from '../../nodes/NodeStatusBadge';
import type { AdminNodeRecord } from '../../nodes/types';
import { usePhoneLayout } from '../ListCards';
import { Addresses, Capacity, ClusterError, SystemInfo } from './parts';

const Section = ({ id, title, children, fill = false }: { id: string; title: string; children: React.ReactNode; fill?: boolean }) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-labelledby={id} sx={fill ? { height: '100%' } : undefined}>
      <CardContent>
        <Typography id={id} variant="h6" component="h2" gutterBottom>
          {translate(title)}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

const Conditions = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  const conditions = record.status?.conditions ?? [];
  const phone = usePhoneLayout();
  if (conditions.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('nodes.admin.no_conditions')}
      </Typography>
    );
  }
  if (phone) {
    // Below sm, one card per condition: the five columns would not fit a phone's width.
    return (
      <Stack spacing={1} role="list" aria-labelledby="admin-node-conditions">
        {conditions.map((condition) => (
          <Card key={condition.type} variant="outlined" role="listitem">
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 }, overflowWrap: 'anywhere' }}>
              <Typography variant="subtitle2">
                {condition.type}: {condition.status}
              </Typography>
              {condition.reason && <Typography variant="body2">{condition.reason}</Typography>}
              {condition.message && (
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {condition.message}
                </Typography>
              )}
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                {translate('app.labelled', { label: translate('nodes.conditions.lastHeartbeatTime') })} {formatDateTime(condition.lastHeartbeatTime)}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 800 }} aria-labelledby="admin-node-conditions">
        <TableHead>
          <TableRow>
            <TableCell>{translate('nodes.conditions.type')}</TableCell>
            <TableCell>{translate('nodes.conditions.status')}</TableCell>
            <TableCell>{translate('nodes.conditions.reason')}</TableCell>
            <TableCell>{translate('nodes.conditions.message')}</TableCell>
            <TableCell>{translate('nodes.conditions.lastHeartbeatTime')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {conditions.map((condition) => (
            <TableRow key={condition.type}>
              <TableCell sx={{ fontWeight: 600 }}>{condition.type}</TableCell>
              <TableCell>{condition.status}</TableCell>
              <TableCell>{condition.reason ?? ''}</TableCell>
              <TableCell>{condition.message ?? ''}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(condition.lastHeartbeatTime)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/** Disable (after a confirmation: cordon + Disabled) or Enable the node. */
const EnableDisableButton = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  const disabled = record.status?.state === '';

  const change = async (enabled: boolean) => {
    setWorking(true);
    try {
      await dataProvider.setNodeEnabled(record.name, enabled);
      notify(enabled ? 'nodes.admin.enabled' : 'nodes.admin.disabled', { type: 'success', messageArgs: { name: record.name } });
      await queryClient.invalidateQueries({ queryKey: ['admin/nodes'] });
    } catch (failure) {
      const message = errorMessage(failure);
      notify(translate(message, { _: message }), { type: 'error' });
    } finally {
      setWorking(false);
      setConfirming(false);
    }
  };

  return disabled ? (
    <Button variant="contained" color="success" startIcon={<CheckCircleOutlineIcon />} onClick={() => void change(true)} disabled={working}>
      {translate('nodes.admin.enable')}
    </Button>
  ) : (
    <>
      <Button variant="outlined" color="error" startIcon={<BlockIcon />} onClick={() => setConfirming(true)} disabled={working}>
        {translate('nodes.admin.disable')}
      </Button>
      <ConfirmDialog
        isOpen={confirming}
        loading={working}
        title="nodes.admin.disable_title"
        content="nodes.admin.disable_content"
        translateOptions={{ name: record.name }}
        confirm="nodes.admin.disable"
        destructive
        onConfirm={() => void change(false)}
        onClose={() => setConfirming(false)}
      />
    </>
  );
};

/**
 * /admin/nodes/{name}: the cluster node (GET /api/admin/nodes/{name}): addresses, capacity,
 * system info, status, owner, conditions and activity; Disable (confirmed) / Enable.
 */
export const AdminNodeShow = () => {
  const { id: name = '' } = useParams();
  const translate = useTranslate();
  const typeLabel = useNodeTypeLabel();
  const { data: record, isPending, error, refetch, isFetching } = useGetOne<AdminNodeRecord>(
    'admin/nodes',
    { id: name as unknown as string },
    { retry: false },
  );

  if (isPending) return <Loading />;
  if (error || !record) {
    const status = (error as { status?: number } | null)?.status;
    return (
      <Box sx={{ py: 2 }}>
        <Title title={name} />
        {status === 404 || !error ? (
          <Alert severity="error">{translate('nodes.admin.not_found')}</Alert>
        ) : (
          <ClusterError error={error} onRetry={() => void refetch()} retrying={isFetching} />
        )}
      </Box>
    );
  }

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title={record.name} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', flexGrow: 1 }}>
          <Typography variant="h5" component="h1">
            {record.name}
          </Typography>
          <NodeStatusBadge status={record.status?.state} />
          {record.unschedulable && <Chip size="small" variant="outlined" label={translate('nodes.admin.cordoned')} />}
        </Stack>
        <EnableDisableButton record={record} />
      </Stack>
      <ResponsiveColumns>
        <Section id="admin-node-details" fill title="nodes.admin.details">
          <Stack spacing={0.5}>
            <Typography variant="body2">
              {translate('app.labelled', { label: translate('resources.admin/nodes.fields.type') })} {record.type ? typeLabel(record.type) : '—'}
            </Typography>
            <Typography variant="body2">
              {translate('app.labelled', { label: translate('resources.admin/nodes.fields.owner') })} {record.owner?.name ?? translate('nodes.admin.no_owner')}
            </Typography>
            {record.node_id != null && (
              <MuiLink component={Link} to={`/nodes/${record.node_id}`} variant="body2">
                {translate('nodes.admin.console_node')}
              </MuiLink>
            )}
          </Stack>
        </Section>
        <Section id="admin-node-addresses" fill title="resources.admin/nodes.fields.addresses">
          <Addresses record={record} />
        </Section>
        <Section id="admin-node-capacity" fill title="resources.admin/nodes.fields.capacity">
          <Capacity record={record} />
        </Section>
        <Section id="admin-node-system" fill title="resources.admin/nodes.fields.nodeInfo">
          <SystemInfo record={record} />
        </Section>
      </ResponsiveColumns>
      <Section id="admin-node-conditions" title="nodes.conditions.title">
        <Conditions record={record} />
      </Section>
      <NodeActivityCard>
        <NodeActivityTable entries={record.activity ?? []} />
      </NodeActivityCard>
    </Stack>
  );
};
