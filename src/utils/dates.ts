import dayjs from 'dayjs';

/** Lists: DD/MM/YYYY HH:mm, in the browser's time zone. '' for no date. */
export const formatDateTime = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('DD/MM/YYYY HH:mm') : '';
};

/** Activity log: DD/MM/YYYY HH:mm:ssZ. */
export const formatLogTimestamp = (value: string | number | Date | null | undefined): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('DD/MM/YYYY HH:mm:ssZ') : '';
};
