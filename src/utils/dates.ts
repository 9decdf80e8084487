import dayjs from 'dayjs';
import { currentLocale } from '../i18n/locale';

/**
 * The locale dates are written in, within the console's language: the browser's own when it
 * speaks that language (an en-US browser reads 11/02/2026 as 2 November only if written its
 * way), else the language's usual one (en-GB, fr-FR).
 */
export const dateLocale = (language: string = currentLocale()): string => {
  const primary = language.toLowerCase().split(/[-_]/)[0];
  const browser = typeof navigator === 'undefined' ? '' : (navigator.language ?? '');
  if (browser && browser.toLowerCase().split(/[-_]/)[0] === primary) return browser;
  return primary === 'en' ? 'en-GB' : primary === 'fr' ? 'fr-FR' : language;
};

const NUMERIC_DATE: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };

const toDate = (value: string | number | Date | null | undefined): Date | null => {
  if (value === null || value === undefined || value === '') return null;
  const date = dayjs(value);
  return date.isValid() ? date.toDate() : null;
};

/**
 * Lists: the date and the time, in the browser's time zone and its order within the console's
 * language ('02/11/2026 07:04' in en-GB or fr-FR, '11/02/2026 07:04 AM' in en-US). '' for no date.
 */
export const formatDateTime = (value: string | number | Date | null | undefined): string => {
  const date = toDate(value);
  if (!date) return '';
  const locale = dateLocale();
  return `${date.toLocaleDateString(locale, NUMERIC_DATE)} ${date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })}`;
};

/**
 * Activity log: the date in the browser's order as lists write it, then a 24-hour time with
 * seconds and the offset, as logs are compared line by line ('02/11/2026 07:04:09+01:00').
 */
export const formatLogTimestamp = (value: string | number | Date | null | undefined): string => {
  const date = toDate(value);
  if (!date) return '';
  return `${date.toLocaleDateString(dateLocale(), NUMERIC_DATE)} ${dayjs(date).format('HH:mm:ssZ')}`;
};

/**
 * An end date in words, in the browser's order within the chosen language: '30 June 2027' in
 * en-GB, 'June 30, 2027' in en-US, '30 juin 2027' in French. '' for no date.
 */
export const formatLongDate = (value: string | number | Date | null | undefined, locale: string): string => {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(dateLocale(locale), { day: 'numeric', month: 'long', year: 'numeric' });
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
