import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import {
  Box,
  Button,
  Card,
  CardContent,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Loading, Title, useGetList, useTranslate } from 'react-admin';
import { EmptyState } from '../../components/EmptyState';
import { RequestStatusChip } from '../../components/RequestStatusChip';
import { REQUESTS_REFRESH_MS } from '../../hooks';
import { requestObject } from '../../pages/profile/UserRequests';
import type { UserRequest } from '../../types';
import { formatDateTime } from '../../utils/dates';
import { ManageRequestDialog } from './ManageRequestDialog';

type RequestRecord = UserRequest & { id: number };

const RequestTable = ({
  requests,
  label,
  onManage,
}: {
  requests: RequestRecord[];
  label: string;
  onManage: (request: RequestRecord) => void;
}) => {
  const translate = useTranslate();
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 800 }} aria-label={label}>
        <TableHead>
          <TableRow>
            {['type', 'requester', 'object', 'message', 'created_at', 'status', 'actions'].map((column) => (
              <TableCell key={column} align={column === 'actions' ? 'right' : undefined}>
                {translate(`requests.fields.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {requests.map((request) => (
            <TableRow key={request.id} data-request-id={request.id}>
              <TableCell>{translate(`requests.type.${request.type}`, { _: request.type })}</TableCell>
              <TableCell>{request.user?.firstname ?? ''}</TableCell>
              <TableCell>{requestObject(request)}</TableCell>
              <TableCell sx={{ whiteSpace: 'pre-wrap', maxWidth: 320 }}>{request.message ?? ''}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(request.created_at)}</TableCell>
              <TableCell>
                <RequestStatusChip status={request.status} />
              </TableCell>
              <TableCell align="right">
                {request.status === 'Pending' && (
                  <Button
                    variant="contained"
                    size="small"
                    onClick={() => onManage(request)}
                    aria-label={translate('requests.manage')}
                    title={translate('requests.manage_label', { name: request.user?.firstname ?? '' })}
                  >
                    {translate('requests.manage')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/**
 * /requests: the requests the user may decide as a team or workspace manager (GET
 * /api/requests, newest first). The pending ones, each with 'Manage', show only when there are
 * some (a friendly empty state otherwise); the decided ones follow.
 */
export const RequestList = () => {
  const translate = useTranslate();
  const [managed, setManaged] = useState<RequestRecord | null>(null);
  const { data, isPending } = useGetList<RequestRecord>(
    'requests',
    { pagination: { page: 1, perPage: 1000 }, sort: { field: 'created_at', order: 'DESC' } },
    { refetchInterval: REQUESTS_REFRESH_MS },
  );
  const requests = data ?? [];
  const pending = requests.filter((request) => request.status === 'Pending');
  const decided = requests.filter((request) => request.status !== 'Pending');

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title="requests.title" />
      <Box>
        <Typography variant="h5" component="h1">
          {translate('requests.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('requests.intro')}
        </Typography>
      </Box>
      {isPending ? (
        <Loading />
      ) : (
        <>
          <Card component="section" aria-labelledby="requests-pending-title">
            <CardContent>
              <Typography id="requests-pending-title" variant="h6" component="h2" gutterBottom>
                {translate('requests.pending_title')}
              </Typography>
              {pending.length === 0 ? (
                <EmptyState
                  icon={<AssignmentOutlinedIcon />}
                  title={translate('requests.empty')}
                  body={translate('requests.empty_body')}
                />
              ) : (
                <RequestTable requests={pending} label={translate('requests.pending_title')} onManage={setManaged} />
              )}
            </CardContent>
          </Card>
          {decided.length > 0 && (
            <Card component="section" aria-labelledby="requests-decided-title">
              <CardContent>
                <Typography id="requests-decided-title" variant="h6" component="h2" gutterBottom>
                  {translate('requests.decided_title')}
                </Typography>
                <RequestTable requests={decided} label={translate('requests.decided_title')} onManage={setManaged} />
              </CardContent>
            </Card>
          )}
        </>
      )}
      <ManageRequestDialog request={managed} onClose={() => setManaged(null)} />
    </Stack>
  );
};
