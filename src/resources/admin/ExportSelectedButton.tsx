import DownloadIcon from '@mui/icons-material/GetApp';
import { Button, CircularProgress } from '@mui/material';
import { useState } from 'react';
import { useListContext, useNotify, useResourceContext, useTranslate } from 'react-admin';
import { endpoints } from '../../dataProvider';
import { useSettings } from '../../settings';
import { downloadWithToken } from '../../utils/download';
import { exportUrl } from './ExportCsvButton';

/**
 * The bulk toolbar's "Export selected" (admin nodes and activity): the server's CSV of just the
 * checked rows, `GET {list}.csv?filter[ids]=1,2,3` (a node's id is its name), saved as the
 * list's Export saves the whole list (ExportCsvButton: the session's token, the server's file
 * name, its message on failure).
 */
export const ExportSelectedButton = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const settings = useSettings();
  const resource = useResourceContext() ?? '';
  const { selectedIds = [] } = useListContext();
  const [downloading, setDownloading] = useState(false);
  const path = endpoints[resource]?.path;
  if (!path) return null;

  const download = async () => {
    setDownloading(true);
    try {
      await downloadWithToken(exportUrl(settings.apiUrl, path, { ids: selectedIds.map(String).join(',') }), {
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
      disabled={downloading || selectedIds.length === 0}
      aria-busy={downloading}
      startIcon={downloading ? <CircularProgress size={16} color="inherit" aria-label={translate('resources.export.downloading')} /> : <DownloadIcon />}
    >
      {translate('adminBulk.export_selected')}
    </Button>
  );
};
