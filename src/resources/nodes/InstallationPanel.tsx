import DownloadIcon from '@mui/icons-material/Download';
import TerminalIcon from '@mui/icons-material/Terminal';
import UsbIcon from '@mui/icons-material/Usb';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Divider, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { CopyButton } from '../../components/CopyButton';
import type { ConsoleDataProvider } from '../../dataProvider';
import { serverMessage } from '../../httpClient';
import { saveBlob } from '../../utils/download';
import { CommandLine } from '../workspaces/KubeconfigPanel';
import { InstallAddressNotice } from './InstallAddressNotice';
import type { NodeRecord } from './types';

/** The terminal install command for an installation_url (shown on the node page). */
export const installCommand = (installationUrl: string) => `curl -fsSL '${installationUrl}' | sudo sh`;

/** The id of the "Install from terminal" heading (the waiting notice leads people there). */
export const INSTALL_TERMINAL_ID = 'node-install-terminal';

/** The file name of a node's USB image (as the server's Content-Disposition says). */
export const imageFilename = (id: NodeRecord['id']) => `testbed-node-${id}-cidata.img`;

/**
 * Install from terminal (the copyable `curl … | sudo sh` command) and install from a USB stick
 * (the node's cloud-init seed image, downloaded with the session's token).
 */
export const InstallationPanel = ({ node }: { node: NodeRecord }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const command = node.installation_url ? installCommand(node.installation_url) : '';
  const filename = imageFilename(node.id);

  const download = async () => {
    setDownloading(true);
    setError(null);
    try {
      saveBlob((await dataProvider.downloadNodeImage(node)).blob, filename);
    } catch (failure) {
      const message = serverMessage(failure, 'nodes.install.download_error');
      setError(translate(message, { _: message }));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="node-install-title">
      <CardContent>
        <Typography id="node-install-title" variant="h6" component="h2" gutterBottom>
          {translate('nodes.install.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('nodes.install.intro')}
        </Typography>

        <Box component="section" aria-labelledby={INSTALL_TERMINAL_ID} sx={{ mt: 2, scrollMarginTop: 72 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TerminalIcon color="primary" fontSize="small" />
            <Typography id={INSTALL_TERMINAL_ID} variant="subtitle1" component="h3">
              {translate('nodes.install.terminal')}
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {translate('nodes.install.terminal_hint')}
          </Typography>
          {command ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
              <Box sx={{ flexGrow: 1, minWidth: 0 }} data-testid="install-command">
                <CommandLine command={command} />
              </Box>
              <CopyButton text={command} size="small" sx={{ mt: { sm: 1 }, flexShrink: 0 }} />
            </Stack>
          ) : (
            <Alert severity="info" sx={{ mt: 1 }}>
              {translate('nodes.install.no_url')}
            </Alert>
          )}
          <InstallAddressNotice url={node.installation_url} />
        </Box>

        <Divider sx={{ my: 2 }} />

        <Box component="section" aria-labelledby="node-install-usb">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <UsbIcon color="primary" fontSize="small" />
            <Typography id="node-install-usb" variant="subtitle1" component="h3">
              {translate('nodes.install.usb')}
            </Typography>
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {translate('nodes.install.usb_hint')}
          </Typography>
          <CommandLine command={`sudo dd if=${filename} of=/dev/sdX bs=4M conv=fsync`} />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('nodes.install.usb_boot')}
          </Typography>
          <Button
            variant="contained"
            onClick={download}
            disabled={downloading}
            aria-busy={downloading || undefined}
            startIcon={downloading ? <CircularProgress size={16} color="inherit" aria-hidden /> : <DownloadIcon />}
            sx={{ mt: 1.5 }}
          >
            {translate('nodes.install.download')}
          </Button>
          {error && (
            <Alert
              severity="error"
              sx={{ mt: 2 }}
              action={
                <Button color="inherit" size="small" onClick={download} disabled={downloading}>
                  {translate('nodes.retry')}
                </Button>
              }
            >
              {error}
            </Alert>
          )}
        </Box>
      </CardContent>
    </Card>
  );
};
