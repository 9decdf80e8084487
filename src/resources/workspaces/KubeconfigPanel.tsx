import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import { useState } from 'react';
import { type Identifier, useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import type { KubeconfigAnswer } from './types';

import { serverMessage } from '../../httpClient';
import { formatDateTime } from '../../utils/dates';
import { saveTextFile } from '../../utils/download';

/** A shell command shown as code. */
export const CommandLine = ({ command }: { command: string }) => (
  <Box
    component="pre"
    sx={{
      m: 0,
      mt: 1,
      p: 1,
      borderRadius: 1,
      bgcolor: 'action.hover',
      fontFamily: 'monospace',
      fontSize: '0.85rem',
      whiteSpace: 'pre-wrap',
      wordBreak: 'break-all',
    }}
  >
    <code>{command}</code>
  </Box>
);

/**
 * Members' 'Download kubeconfig': POST /api/subnamespaces/{id}/kubeconfig, saves the YAML as
 * `filename`, then shows the expiry and how to use it. 409 (namespace not provisioned yet) and
 * 503 (cluster down or none) show the server's message with a retry.
 */
export const KubeconfigPanel = ({ workspaceId }: { workspaceId: Identifier }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<KubeconfigAnswer | null>(null);

  const download = async () => {
    setLoading(true);
    setError(null);
    try {
      const answer = await dataProvider.createKubeconfig(workspaceId);
      saveTextFile(answer.kubeconfig, answer.filename || `${answer.namespace}.kubeconfig`);
      setResult(answer);
    } catch (failure) {
      const message = serverMessage(failure, 'workspaces.kubeconfig_error');
      setError(translate(message, { _: message }));
    } finally {
      setLoading(false);
    }
  };

  const filename = result?.filename || (result ? `${result.namespace}.kubeconfig` : '');

  return (
    <Card component="section" aria-labelledby="workspace-kubeconfig-title">
      <CardContent>
        <Typography id="workspace-kubeconfig-title" variant="h6" component="h2" gutterBottom>
          {translate('workspaces.kubeconfig')}
        </Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {translate('workspaces.kubeconfig_intro')}
        </Typography>
        <Button
          variant="contained"
          onClick={download}
          disabled={loading}
          aria-busy={loading}
          startIcon={loading ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
          sx={{ mt: 1 }}
        >
          {translate('workspaces.kubeconfig_download')}
        </Button>
        {loading && (
          <Typography variant="body2" color="text.secondary" role="status" sx={{ mt: 1 }}>
            {translate('workspaces.kubeconfig_downloading')}
          </Typography>
        )}
        {error && (
          <Alert
            severity="error"
            sx={{ mt: 2 }}
            action={
              <Button color="inherit" size="small" onClick={download} disabled={loading}>
                {translate('workspaces.retry')}
              </Button>
            }
          >
            {error}
          </Alert>
        )}
        {result && !error && (
          <Alert severity="success" sx={{ mt: 2 }}>
            <Typography variant="body2">
              {translate('workspaces.kubeconfig_expires', { date: formatDateTime(result.expires_at) })}
            </Typography>
            <Typography variant="body2">{translate('workspaces.kubeconfig_saved', { filename })}</Typography>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {translate('workspaces.kubeconfig_howto')}
            </Typography>
            <CommandLine command={`kubectl --kubeconfig ${filename} get pods`} />
          </Alert>
        )}
      </CardContent>
    </Card>
  );
};
