import { ActivityDescription } from '../../../components/ActivityDescription';
import { Stack, Typography } from '@mui/material';
import { AutocompleteInput, DataTable, List, ReferenceInput, useTranslate } from 'react-admin';
import { formatLogTimestamp } from '../../../utils/dates';
import { AdminSearchInput, adminTableSx, SeverityChip } from '../common';
import { BulkToolbar } from '../bulk';
import { AdminListActions } from '../ExportCsvButton';
import { ExportSelectedButton } from '../ExportSelectedButton';
import { CardLine, ListCards, usePhoneLayout } from '../ListCards';
import { asideListSx, ChoiceFilter, DateRangeFilter, FilterSidebar, searchAtServer } from '../FilterSidebar';

interface AdminActivity {
  id: number;
  causer?: { id: number; name: string } | null;
  description: string;
  subject?: { id: number; name: string } | null;
  subject_type?: string | null;
  properties?: { severity?: string; [key: string]: unknown } | null;
  created_at: string;
}

const SEVERITIES = ['info', 'warning', 'error'];
const SUBJECT_TYPES = ['team', 'workspace', 'user', 'request', 'node'];

/** filter[causer_id]: the user, picked by an autocomplete over GET /api/admin/users?q= (100,000 people). */
const filters = [
  <AdminSearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="causer_id" source="causer_id" reference="admin/users" sort={{ field: 'name', order: 'ASC' }} alwaysOn>
    <AutocompleteInput
      label="admin_filters.user"
      optionText={(user: { name?: string; email?: string }) => (user.email ? `${user.name} <${user.email}>` : (user.name ?? ''))}
      filterToQuery={searchAtServer}
      sx={{ minWidth: 280 }}
    />
  </ReferenceInput>,
];

const ActivityFilters = () => {
  const translate = useTranslate();
  return (
    <FilterSidebar>
      <DateRangeFilter label="admin_filters.when" />
      <ChoiceFilter
        label="admin_filters.severity"
        source="severity"
        choices={SEVERITIES.map((id) => ({ id, name: translate(`resources.admin/activity.severity.${id}`) }))}
      />
      <ChoiceFilter
        label="admin_filters.subject_type"
        source="subject_type"
        choices={SUBJECT_TYPES.map((id) => ({ id, name: translate(`resources.admin/activity.subject_types.${id}`) }))}
      />
    </FilterSidebar>
  );
};

/** /admin/activity: the audit log, newest first; timestamps DD/MM/YYYY HH:mm:ssZ. Checked rows: Export selected. */
// The checked rows only: the toolbar's Export takes the whole filtered list.
const activityToolbar = (
  <BulkToolbar selectAll={false}>
    <ExportSelectedButton />
  </BulkToolbar>
);

const subjectOf = (record: AdminActivity) => (record.subject ? `${record.subject.name}` : (record.subject_type ?? ''));

/** Below sm: the same facts as the table's row, one card per entry. */
const ActivityCard = ({ record }: { record: AdminActivity }) => (
  <Stack spacing={0.5}>
    <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {formatLogTimestamp(record.created_at)}
      </Typography>
      <SeverityChip severity={record.properties?.severity} />
    </Stack>
    <Typography variant="body2">
      <ActivityDescription description={record.description} />
    </Typography>
    {record.causer && <CardLine label="resources.admin/activity.fields.causer">{record.causer.name}</CardLine>}
    {subjectOf(record) && <CardLine label="resources.admin/activity.fields.subject">{subjectOf(record)}</CardLine>}
  </Stack>
);

export const AdminActivityList = () => {
  const phone = usePhoneLayout();
  const translate = useTranslate();
  return (
  <List<AdminActivity>
    resource="admin/activity"
    filters={filters}
    aside={<ActivityFilters />}
    actions={<AdminListActions />}
    sort={{ field: 'created_at', order: 'DESC' }}
    perPage={50}
    sx={asideListSx}
  >
    {phone ? (
      <ListCards<AdminActivity> label={translate('resources.admin/activity.name', { smart_count: 2 })} bulkActionsToolbar={activityToolbar}>
        {(record) => <ActivityCard record={record} />}
      </ListCards>
    ) : (
    <DataTable<AdminActivity>
      bulkActionButtons={<ExportSelectedButton />}
      bulkActionsToolbar={activityToolbar}
      rowClick={false}
      sx={adminTableSx}
    >
      <DataTable.Col<AdminActivity> source="causer" disableSort render={(record) => record.causer?.name ?? ''} />
      <DataTable.Col<AdminActivity> source="description" disableSort render={(record) => <ActivityDescription description={record.description} />} />
      <DataTable.Col<AdminActivity>
        source="subject"
        disableSort
        render={subjectOf}
      />
      <DataTable.Col<AdminActivity> source="severity" disableSort render={(record) => <SeverityChip severity={record.properties?.severity} />} />
      <DataTable.Col<AdminActivity> source="created_at" render={(record) => formatLogTimestamp(record.created_at)} />
    </DataTable>
    )}
  </List>
  );
};
