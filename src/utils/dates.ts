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

/**
 * An end date in words, day first as the console's other dates are: '30 June 2027' in English,
 * '30 juin 2027' in French. '' for no date.
 */
export const formatLongDate = (value: string | number | Date | null | undefined, locale: string): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(locale === 'en' ? 'en-GB' : locale, { day: 'numeric', month: 'long', year: 'numeric' });
};

/**
 * A date picked in a date field (YYYY-MM-DD) as the ISO date-time the API takes: the end of
 * that day in the browser's time zone, so that "until 30 June" includes 30 June. null when the
 * value is not a date.
 */
export const endOfDayIso = (value: string): string | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** An ISO date-time as a date field's value (YYYY-MM-DD, in the browser's time zone); '' for none. */
export const dateFieldValue = (value: string | null | undefined): string => {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('YYYY-MM-DD') : '';
};
