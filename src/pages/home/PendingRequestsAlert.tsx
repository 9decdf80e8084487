import { Alert, Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/** The home page's alert about pending requests to manage, hidden when there are none. */
export const PendingRequestsAlert = ({ count }: { count: number }) => {
  const translate = useTranslate();
  if (count <= 0) return null;
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2 }}
      action={
        <Button component={Link} to="/requests" color="inherit" size="small" variant="outlined">
          {translate('home.manage_requests')}
        </Button>
      }
    >
      {translate('home.pending_requests', { smart_count: count })}
    </Alert>
  );
};
