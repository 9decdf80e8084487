import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import { Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { EmptyState } from '../../components/EmptyState';
import { RequestStatusChip } from '../../components/RequestStatusChip';
import type { UserRequest } from '../../types';
import { formatDateTime } from '../../utils/dates';
import { requestObject } from '../../utils/requestObject';

/** The user's own requests (from user.requests): type, object, status badge, date. */
export const UserRequests = ({ requests }: { requests: UserRequest[] }) => {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  if (requests.length === 0) {
    return <EmptyState icon={<AssignmentOutlinedIcon />} title={translate('profile.requests.empty')} />;
  }
  const sorted = [...requests].sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  if (phone) {
    // Below `sm`: one entry per request, where the 800 px table would scroll sideways.
    return (
      <Stack component="ul" spacing={1} aria-label={translate('profile.requests.title')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {sorted.map((request) => (
          <Box component="li" key={request.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
              <Typography variant="subtitle2">{translate(`requests.type.${request.type}`, { _: request.type })}</Typography>
              <RequestStatusChip status={request.status} />
            </Stack>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {requestObject(request)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(request.created_at)}
            </Typography>
          </Box>
        ))}
      </Stack>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 800 }} aria-label={translate('profile.requests.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('profile.requests.type')}</TableCell>
            <TableCell>{translate('profile.requests.object')}</TableCell>
            <TableCell>{translate('profile.requests.status')}</TableCell>
            <TableCell>{translate('profile.requests.created_at')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sorted.map((request) => (
            <TableRow key={request.id}>
              <TableCell>{translate(`requests.type.${request.type}`, { _: request.type })}</TableCell>
              <TableCell>{requestObject(request)}</TableCell>
              <TableCell>
                <RequestStatusChip status={request.status} />
              </TableCell>
              <TableCell>{formatDateTime(request.created_at)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
