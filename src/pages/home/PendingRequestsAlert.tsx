import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * Spec §2: the home page's alert about pending requests, hidden when there are none.
 * Extension point: the requests issue adds a link to /requests here.
 */
export const PendingRequestsAlert = ({ count }: { count: number }) => {
  const translate = useTranslate();
  if (count <= 0) return null;
  return (
    <Alert severity="info" role="status" sx={{ mb: 2 }}>
      {translate('home.pending_requests', { smart_count: count })}
    </Alert>
  );
};
