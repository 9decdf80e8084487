import { Button, type ButtonProps, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';

export interface SubmitButtonProps extends Omit<ButtonProps, 'children'> {
  /** Translation key (or text) of the label, also the accessible name. */
  label: string;
  /** A request is in progress: the button is disabled and shows a spinner. */
  loading?: boolean;
}

/** A form's submit button with a progress state. */
export const SubmitButton = ({ label, loading = false, disabled, ...rest }: SubmitButtonProps) => {
  const translate = useTranslate();
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      startIcon={loading ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
      {...rest}
    >
      {translate(label, { _: label })}
    </Button>
  );
};
