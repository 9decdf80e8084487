import { useListContext } from 'react-admin';
import { CsvDownloadButton } from './ExportCsvButton';

/**
 * The bulk toolbar's "Export selected" (admin nodes and activity): the server's CSV of just the
 * checked rows, `GET {list}.csv?filter[ids]=1,2,3` (a node's id is its name), saved as the
 * list's Export saves the whole list.
 */
export const ExportSelectedButton = () => {
  const { selectedIds = [] } = useListContext();
  return <CsvDownloadButton filter={{ ids: selectedIds.map(String).join(',') }} label="adminBulk.export_selected" disabled={selectedIds.length === 0} />;
};
