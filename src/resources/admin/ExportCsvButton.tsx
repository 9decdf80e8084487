import DownloadIcon from '@mui/icons-material/GetApp';
import { Button, CircularProgress } from '@mui/material';
import { useState } from 'react';
import { FilterButton, TopToolbar, useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import { endpoints, paginatorQuery } from '../../dataProvider';
import { useSettings } from '../../settings';
import { downloadWithToken } from '../../utils/download';

/** `GET {list path}.csv?q=…&filter[…]=…`: the export of an admin list for these filters. */
export const exportUrl = (apiUrl: string, path: string, filter: Record<string, unknown>): string => {
  const url = new URL(`${apiUrl.replace(/\/+$/, '')}${path}.csv`, window.location.origin);
  for (const [key, value] of Object.entries(paginatorQuery({ filter }))) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== '') url.searchParams.append(key, String(item));
    }
  }
  return url.toString();
};

/**
 * A button that saves the server's CSV of the current admin list for `filter`, with the
 * session's token, the server's file name, and its message on failure. The list's Export and the
 * bulk toolbar's "Export selected" differ only in the filter and the label.
 */
export const CsvDownloadButton = ({ filter, label, disabled }: { filter: Record<string, unknown>; label: string; disabled: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const settings = useSettings();
  const resource = useResourceContext() ?? '';
  const [downloading, setDownloading] = useState(false);
  const path = endpoints[resource]?.path;
  if (!path) return null;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadWithToken(exportUrl(settings.apiUrl, path, filter), {
        accept: 'text/csv',
        fallbackName: `${path.split('/').pop()}-${new Date().toISOString().slice(0, 10)}.csv`,
        fallbackMessage: 'resources.export.error',
      });
    } catch (failure) {
      const message = (failure as Error)?.message || 'resources.export.error';
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
