import { DataTable, List, SelectInput } from 'react-admin';
import { formatLogTimestamp } from '../../../utils/dates';
import { AdminSearchInput, adminListSx, adminTableSx, SeverityChip } from '../common';
import { AdminListActions } from '../ExportCsvButton';

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
const SUBJECT_TYPES = ['team', 'workspace', 'user', 'request'];

const filters = [
  <AdminSearchInput key="q" source="q" alwaysOn />,
  <SelectInput
    key="severity"
    source="severity"
    choices={SEVERITIES.map((id) => ({ id, name: `resources.admin/activity.severity.${id}` }))}
  />,
  <SelectInput
    key="subject_type"
    source="subject_type"
    choices={SUBJECT_TYPES.map((id) => ({ id, name: `resources.admin/activity.subject_types.${id}` }))}
  />,
];

/** /admin/activity: the audit log, newest first; timestamps DD/MM/YYYY HH:mm:ssZ (spec §9). */
export const AdminActivityList = () => (
  <List<AdminActivity>
    resource="admin/activity"
    filters={filters}
    actions={<AdminListActions />}
    sort={{ field: 'created_at', order: 'DESC' }}
    perPage={50}
    sx={adminListSx}
  >
    <DataTable<AdminActivity> bulkActionButtons={false} rowClick={false} sx={adminTableSx}>
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
