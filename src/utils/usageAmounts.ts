/**
 * How usage amounts (core-hours, GiB-hours) are written: one decimal, and those under one with
 * two significant digits. A workspace that ran one small pod for a day used 0.0024 core-hours,
 * which one decimal wrote as 0: in the usage card's totals, table and chart axis, on the admin
 * usage page and on the overview's top teams.
 */
export const usageAmountFormat = (locale: string) => {
  const oneDecimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const twoDigits = new Intl.NumberFormat(locale, { maximumSignificantDigits: 2 });
  return { format: (value: number) => (value !== 0 && Math.abs(value) < 1 ? twoDigits : oneDecimal).format(value) };
};
