import { Dialog, DialogContent, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import { TokenCreateForm } from './TokenCreateForm';
import type { CreatedToken } from './TokenSecretDialog';

/** The create form in a dialog (the list's Create button), so the user stays where they are. */
export const TokenCreateDialog = ({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (token: CreatedToken) => void;
}) => {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="token-create-title">
      <DialogTitle id="token-create-title">{translate('resources.tokens.create.title')}</DialogTitle>
      <DialogContent>
        <TokenCreateForm onCreated={onCreated} onCancel={onClose} />
      </DialogContent>
    </Dialog>
  );
};
