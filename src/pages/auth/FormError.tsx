import { Alert, type AlertProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A server message (or a translation key) in an alert, announced to screen readers. */
export const FormError = ({ message, severity = 'error', ...rest }: { message?: string | null } & AlertProps) => {
  const translate = useTranslate();
  if (!message) return null;
  return (
    <Alert severity={severity} role="alert" sx={{ mb: 2 }} {...rest}>
      {translate(message, { _: message })}
    </Alert>
  );
};
