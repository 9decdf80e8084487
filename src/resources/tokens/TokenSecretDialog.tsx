import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CopyButton } from '../../components/CopyButton';

export interface CreatedToken {
  name: string;
  plainTextToken: string;
}

/**
 * Shows a new token's plain text once (it is never shown again). The caller drops it from its state on close,
 * so nothing can show it again.
 */
export const TokenSecretDialog = ({ token, onClose }: { token: CreatedToken | null; onClose: () => void }) => {
  const translate = useTranslate();
  return (
    <Dialog open={!!token} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="token-secret-title">
      <DialogTitle id="token-secret-title">{translate('resources.tokens.created.title')}</DialogTitle>
      {token && (
        <DialogContent>
          <Alert severity="warning" icon={<WarningAmberIcon />} sx={{ mb: 2 }}>
            {translate('resources.tokens.created.warning')}
          </Alert>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              label={translate('resources.tokens.created.label')}
              value={token.plainTextToken}
              helperText={token.name}
              autoFocus
              fullWidth
              slotProps={{
                htmlInput: {
                  readOnly: true,
                  spellCheck: false,
                  style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
                  onFocus: (event: React.FocusEvent<HTMLInputElement>) => event.target.select(),
                },
              }}
            />
            <CopyButton text={token.plainTextToken} sx={{ flexShrink: 0 }} />
          </Stack>
        </DialogContent>
      )}
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {translate('resources.tokens.created.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
