import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import { Box, Button, Card, CardContent, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useState } from 'react';
import { AutocompleteInput, DataTable, Link, List, Pagination, type RaRecord, ReferenceInput, SearchInput, SelectInput, useListContext, useTranslate } from 'react-admin';
import { breakableEmail } from '../../components/EmailText';
import { EmptyState } from '../../components/EmptyState';
import { RequestStatusChip } from '../../components/RequestStatusChip';
import { REQUESTS_REFRESH_MS, useCurrentUser } from '../../hooks';
import { requestObject } from '../../utils/requestObject';
import type { UserRequest } from '../../types';
import { formatDateTime } from '../../utils/dates';
import { BulkToolbar } from '../admin/bulk';
import { CardCheckbox, SelectPageCheckbox } from '../admin/ListCards';
import { type BulkDecision, BulkDecideButtons } from './BulkDecideButtons';
import { BulkDecideDialog } from './BulkDecideDialog';
import { ManageRequestDialog } from './ManageRequestDialog';
import { RenewalAsked } from './RequestDetails';

type RequestRecord = UserRequest & { id: number };

const STATUSES = ['Pending', 'Approved', 'Denied', 'Error'];
const TYPES = ['CreateTeam', 'JoinTeam', 'CreateWorkspace', 'JoinWorkspace', 'RenewWorkspace', 'RenewTeam', 'QuotaIncrease'];
/** Only pending requests can be checked (and decided). */
const isPending = (record: RaRecord) => record.status === 'Pending';

/** The filters (status Pending by default), search first. */
const useRequestFilters = () => {
  const translate = useTranslate();
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('requests.search')} />,
    <SelectInput
      key="status"
      source="status"
      label="requests.fields.status"
      alwaysOn
      emptyText="requests.filters.any_status"
      choices={STATUSES.map((id) => ({ id, name: `requests.status.${id}` }))}
    />,
    <SelectInput
      key="type"
      source="type"
      label="requests.fields.type"
      alwaysOn
      emptyText="requests.filters.any_type"
      choices={TYPES.map((id) => ({ id, name: `requests.type.${id}` }))}
    />,
    // An autocomplete, not a menu: a national testbed has thousands of teams. It asks the server
    // for the first matches of what is typed ('teams/search'), never for every team.
    <ReferenceInput key="team_id" source="team_id" reference="teams/search" alwaysOn enableGetChoices={({ q }: { q?: string }) => !!q?.trim()}>
      <AutocompleteInput label="requests.fields.team" optionText="fullname" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
    </ReferenceInput>,
  ];
};

/** The requester's full name and email; the name links to their admin page for platform admins. */
const Requester = ({ request }: { request: RequestRecord }) => {
  const admin = useCurrentUser()?.admin === true;
  const user = request.user;
  if (!user) return null;
  const name = user.name ?? [user.firstname, user.lastname].filter(Boolean).join(' ');
  return (
    <Box>
      <Box>{admin && user.id ? <Link to={`/admin/users/${user.id}`}>{name}</Link> : name}</Box>
      {user.email && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }}>
          {breakableEmail(user.email)}
        </Typography>
      )}
    </Box>
  );
};

const ManageButton = ({ request, onManage }: { request: RequestRecord; onManage: (request: RequestRecord) => void }) => {
  const translate = useTranslate();
  if (request.status !== 'Pending') return null;
  return (
    <Button
      variant="contained"
      size="small"
      onClick={() => onManage(request)}
      aria-label={translate('requests.manage')}
      title={translate('requests.manage_label', { name: request.user?.name ?? request.user?.firstname ?? '' })}
    >
      {translate('requests.manage')}
    </Button>
  );
};

/** Nothing to show: the friendly state when nothing waits for a decision, else "no match". */
const NoRequests = () => {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  const onlyPending = Object.keys(filterValues).every((key) => key === 'status') && filterValues.status === 'Pending';
  return onlyPending ? (
    <EmptyState icon={<AssignmentOutlinedIcon />} title={translate('requests.empty')} body={translate('requests.empty_body')} />
  ) : (
    <EmptyState title={translate('requests.no_match')} />
  );
};

// With the page checked, "Select all N matching" hands the list's filter to the server,
// which decides every match (BulkDecideDialog), not a capped list of ids.
const RequestBulkToolbar = ({ onBulk }: { onBulk: (decision: BulkDecision) => void }) => (
  <BulkToolbar isSelectable={isPending} selectAllLabel="requests.bulk.select_all" allSelectedLabel="requests.bulk.all_selected">
    <BulkDecideButtons onStart={onBulk} />
  </BulkToolbar>
);

const RequestTable = ({ onManage, onBulk }: { onManage: (request: RequestRecord) => void; onBulk: (decision: BulkDecision) => void }) => {
  const translate = useTranslate();
  return (
    <DataTable<RequestRecord>
      rowClick={false}
      empty={<NoRequests />}
      isRowSelectable={isPending}
      bulkActionsToolbar={<RequestBulkToolbar onBulk={onBulk} />}
      sx={{ '& table': { minWidth: 800 } }}
      aria-label={translate('requests.title')}
    >
      <DataTable.Col<RequestRecord>
        source="type"
        label="requests.fields.type"
        disableSort
        render={(record) => translate(`requests.type.${record.type}`, { _: record.type })}
      />
      <DataTable.Col<RequestRecord> source="user" label="requests.fields.requester" disableSort render={(record) => <Requester request={record} />} />
      <DataTable.Col<RequestRecord>
        source="object"
        label="requests.fields.object"
        disableSort
        render={(record) => (
          <>
            {requestObject(record)}
            <RenewalAsked request={record} />
          </>
        )}
      />
      <DataTable.Col<RequestRecord>
        source="message"
        label="requests.fields.message"
        disableSort
        sx={{ whiteSpace: 'pre-wrap', maxWidth: 320 }}
        render={(record) => record.message ?? ''}
      />
      <DataTable.Col<RequestRecord>
        source="created_at"
        label="requests.fields.created_at"
        sx={{ whiteSpace: 'nowrap' }}
        render={(record) => formatDateTime(record.created_at)}
      />
      <DataTable.Col<RequestRecord> source="status" label="requests.fields.status" disableSort render={(record) => <RequestStatusChip status={record.status} />} />
      <DataTable.Col<RequestRecord>
        source="actions"
        label="requests.fields.actions"
        disableSort
        align="right"
        render={(record) => <ManageButton request={record} onManage={onManage} />}
      />
    </DataTable>
  );
};

/**
 * Below `sm`: one card per request, with Manage within reach (no table to scroll sideways), and
 * the pending ones' checkboxes with the bulk toolbar, as in the table.
 */
const RequestCards = ({ onManage, onBulk }: { onManage: (request: RequestRecord) => void; onBulk: (decision: BulkDecision) => void }) => {
  const translate = useTranslate();
  const { data, isPending: loading } = useListContext<RequestRecord>();
  if (loading) return null;
  if (!data?.length) return <NoRequests />;
  return (
    <>
    <RequestBulkToolbar onBulk={onBulk} />
    <SelectPageCheckbox selectable={data.filter(isPending)} />
    <Stack spacing={1} sx={{ p: 1 }} role="list" aria-label={translate('requests.title')}>
      {data.map((request) => (
        <Card key={request.id} variant="outlined" role="listitem" data-request-id={request.id}>
          <CardContent sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', '&:last-child': { pb: 2 } }}>
            {isPending(request) && <CardCheckbox id={request.id} />}
            <Box sx={{ minWidth: 0, flex: 1 }}>
            <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 0.5 }}>
              <Typography variant="subtitle2">{translate(`requests.type.${request.type}`, { _: request.type })}</Typography>
              <RequestStatusChip status={request.status} />
            </Stack>
            <Typography>{requestObject(request)}</Typography>
            <RenewalAsked request={request} />
            <Requester request={request} />
            {request.message && (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mt: 0.5 }}>
                {request.message}
              </Typography>
            )}
            <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mt: 1 }}>
              <Typography variant="caption" color="text.secondary">
                {formatDateTime(request.created_at)}
              </Typography>
              <ManageButton request={request} onManage={onManage} />
            </Stack>
            </Box>
          </CardContent>
        </Card>
      ))}
    </Stack>
    </>
  );
};

/**
 * /requests: the requests the user may decide as a platform admin or team/workspace manager
 * (GET /api/requests, paged, filtered and searched on the server, newest first), Pending by
 * default. Select rows (or all N matching the filters) to approve or deny many with one
 * message; Manage decides one.
 */
export const RequestList = () => {
  const translate = useTranslate();
  const [managed, setManaged] = useState<RequestRecord | null>(null);
  const [bulk, setBulk] = useState<BulkDecision | null>(null);
  const filters = useRequestFilters();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Box>
        <Typography variant="h5" component="h1">
          {translate('requests.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('requests.intro')}
        </Typography>
      </Box>
      <List<RequestRecord>
        resource="requests"
        title="requests.title"
        filters={filters}
        filterDefaultValues={{ status: 'Pending' }}
        sort={{ field: 'created_at', order: 'DESC' }}
        perPage={25}
        pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
        actions={false}
        empty={false}
        queryOptions={{ refetchInterval: REQUESTS_REFRESH_MS }}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
      >
        {phone ? <RequestCards onManage={setManaged} onBulk={setBulk} /> : <RequestTable onManage={setManaged} onBulk={setBulk} />}
        {bulk && <BulkDecideDialog decision={bulk} onClose={() => setBulk(null)} />}
      </List>
      <ManageRequestDialog request={managed} onClose={() => setManaged(null)} />
    </Stack>
  );
};
