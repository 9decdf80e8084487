import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';

export interface ConfirmDialogProps {
  isOpen: boolean;
  /** A translation key (or text) or a node. */
  title: ReactNode;
  /** A translation key (or text) or a node. */
  content: ReactNode;
  /** Options for translating a title or content given as a key. */
  translateOptions?: Record<string, unknown>;
  /** Translation key (or text) of the confirm button. */
  confirm: string;
  /** Deletes, disables, revokes or removes: the confirm button is red. */
  destructive?: boolean;
  /**
   * For what cannot be undone (deleting a team or a workspace): the person types this name and
   * the confirm button stays disabled until it matches.
   */
  typeToConfirm?: string;
  loading?: boolean;
  /** Confirming is not possible yet (e.g. what it would do is still loading). */
  disabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The console's confirmation: a plain Cancel (react-admin's Confirm puts a warning icon on
 * Cancel and colours every confirm button alike), and a confirm button that is red when it
 * destroys something, so that "Disable" or "Delete" never looks like "Save".
 */
export const ConfirmDialog = ({
  isOpen,
  title,
  content,
  translateOptions = {},
  confirm,
  destructive = false,
  typeToConfirm,
  loading = false,
  disabled = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) => {
  const translate = useTranslate();
  const titleId = useId();
  const [typed, setTyped] = useState('');
  // A fresh dialog starts empty: the name typed for one deletion does not confirm the next.
  useEffect(() => {
    if (!isOpen) setTyped('');
  }, [isOpen]);
  const text = (value: ReactNode) => (typeof value === 'string' ? translate(value, { _: value, ...translateOptions }) : value);
  const matches = typeToConfirm === undefined || typed.trim() === typeToConfirm.trim();
  return (
    <Dialog open={isOpen} onClose={loading ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{text(title)}</DialogTitle>
      <DialogContent>
        {typeof content === 'string' ? <DialogContentText>{text(content)}</DialogContentText> : content}
        {typeToConfirm !== undefined && (
          <TextField
            fullWidth
            margin="normal"
            size="small"
            autoComplete="off"
            label={translate('app.confirm.type_name', { name: typeToConfirm })}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && matches && !loading && !disabled) onConfirm();
            }}
            slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off' } }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={loading}>
          {translate('ra.action.cancel')}
        </Button>
        <Button
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          disabled={loading || disabled || !matches}
          aria-busy={loading || undefined}
          startIcon={loading ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
          onClick={onConfirm}
          autoFocus={typeToConfirm === undefined}
        >
          {translate(confirm, { _: confirm })}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
