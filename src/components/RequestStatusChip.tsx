import { Chip, type ChipProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Request status colours: Approved green; Error and Denied red; Pending (and anything else) default. */
export const requestStatusColor = (status: string): ChipProps['color'] => {
  if (status === 'Approved') return 'success';
  if (status === 'Error' || status === 'Denied') return 'error';
  return 'default';
};

export const RequestStatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate(`requests.status.${status}`, { _: status })}
      color={requestStatusColor(status)}
      data-status={status}
    />
  );
};
