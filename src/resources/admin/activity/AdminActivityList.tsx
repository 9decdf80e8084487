import { AutocompleteInput, DataTable, List, ReferenceInput, useTranslate } from 'react-admin';
import { formatLogTimestamp } from '../../../utils/dates';
import { AdminSearchInput, adminTableSx, SeverityChip } from '../common';
import { BulkToolbar } from '../bulk';
import { AdminListActions } from '../ExportCsvButton';
import { ExportSelectedButton } from '../ExportSelectedButton';
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

/** /admin/activity: the audit log, newest first; timestamps DD/MM/YYYY HH:mm:ssZ (spec §9). Checked rows: Export selected. */
export const AdminActivityList = () => (
  <List<AdminActivity>
    resource="admin/activity"
    filters={filters}
    aside={<ActivityFilters />}
    actions={<AdminListActions />}
    sort={{ field: 'created_at', order: 'DESC' }}
    perPage={50}
    sx={asideListSx}
  >
    <DataTable<AdminActivity>
      bulkActionButtons={<ExportSelectedButton />}
      // The checked rows only: the toolbar's Export takes the whole filtered list.
      bulkActionsToolbar={
        <BulkToolbar selectAll={false}>
          <ExportSelectedButton />
        </BulkToolbar>
      }
      rowClick={false}
      sx={adminTableSx}
    >
      <DataTable.Col<AdminActivity> source="causer" disableSort render={(record) => record.causer?.name ?? ''} />
      <DataTable.Col<AdminActivity> source="description" disableSort />
      <DataTable.Col<AdminActivity>
        source="subject"
        disableSort
        render={(record) => (record.subject ? `${record.subject.name}` : record.subject_type ?? '')}
      />
      <DataTable.Col<AdminActivity> source="severity" disableSort render={(record) => <SeverityChip severity={record.properties?.severity} />} />
      <DataTable.Col<AdminActivity> source="created_at" render={(record) => formatLogTimestamp(record.created_at)} />
    </DataTable>
  </List>
);
