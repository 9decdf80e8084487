import DownloadIcon from '@mui/icons-material/GetApp';
import { Button, CircularProgress } from '@mui/material';
import { useState } from 'react';
import { FilterButton, TopToolbar, useDataProvider, useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { serverMessage } from '../../httpClient';
import { saveBlob } from '../../utils/download';

/**
 * A button that saves the server's CSV of the current admin list for `filter`, with the
 * session's token, the server's file name, and its message on failure. The list's Export and the
 * bulk toolbar's "Export selected" differ only in the filter and the label.
 */
export const CsvDownloadButton = ({ filter, label, disabled }: { filter: Record<string, unknown>; label: string; disabled: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const resource = useResourceContext() ?? '';
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const file = await dataProvider.exportCsv(resource, filter);
      saveBlob(file.blob, file.filename);
    } catch (failure) {
      const message = serverMessage(failure, 'resources.export.error');
      notify(translate(message, { _: message }), { type: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Button
      size="small"
      onClick={download}
      disabled={downloading || disabled}
      aria-busy={downloading}
      startIcon={downloading ? <CircularProgress size={16} color="inherit" aria-label={translate('resources.export.downloading')} /> : <DownloadIcon />}
    >
      {translate(label)}
    </Button>
  );
};

/**
 * The admin lists' Export: the server's CSV of the whole list for the current filters
 * (docs/api-contract.md "Admin lists"). react-admin's own ExportButton would page through the
 * list in the browser and write unescaped cells.
 */
export const ExportCsvButton = () => {
  const { filterValues, total } = useListContext();
  return <CsvDownloadButton filter={filterValues ?? {}} label="ra.action.export" disabled={total === 0} />;
};

/** The admin lists' toolbar: the filters not always shown, and the server-side Export. */
export const AdminListActions = () => (
  <TopToolbar>
    <FilterButton />
    <ExportCsvButton />
  </TopToolbar>
);
