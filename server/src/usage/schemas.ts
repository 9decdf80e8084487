import { z } from 'zod';
import { GRANULARITIES, GROUPS } from './report.js';

// The usage endpoints' query strings and answers (docs/api-contract.md, "Usage").

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * `from` / `to`: an ISO 8601 date (`2026-11-01`) or date and time with a zone
 * (`2026-11-01T12:00:00Z`), as the admin lists' date filters: a date `to` takes in that whole
 * (UTC) day. Answered as ISO text, `to` exclusive.
 */
const instant = (field: 'from' | 'to') =>
  z
    .string({ error: `The ${field} field must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).` })
    .regex(ISO_DATE, `The ${field} field must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).`)
    .transform((value, context) => {
      const dateOnly = value.length === 10;
      const date = new Date(dateOnly ? `${value}T00:00:00Z` : value);
      if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || date.getUTCFullYear() < 1970 || (dateOnly && date.toISOString().slice(0, 10) !== value)) {
        context.addIssue({ code: 'custom', message: `The ${field} field must be a valid date.` });
        return z.NEVER;
      }
      if (field === 'to' && dateOnly) date.setTime(date.getTime() + 86_400_000);
      return date.toISOString();
    })
    .optional();

export const usageQuery = z.object({
  from: instant('from'),
  to: instant('to'),
  granularity: z.enum(GRANULARITIES, { error: 'The granularity field must be hour, day or month.' }).default('day'),
});

export const adminUsageQuery = usageQuery.extend({
  group_by: z.enum(GROUPS, { error: 'The group_by field must be team, workspace or user.' }).default('team'),
  /** `csv`: the same rows as CSV (as GET /api/admin/usage.csv). */
  format: z.enum(['json', 'csv'], { error: 'The format field must be json or csv.' }).default('json'),
});

const totals = { cpu_core_hours: z.number(), memory_gib_hours: z.number() };

const rangeFields = {
  from: z.string(),
  to: z.string(),
  granularity: z.enum(GRANULARITIES),
  /** How far usage is accounted (ISO 8601); null before the first accounting pass. Later hours are not known yet. */
  accounted_until: z.string().nullable(),
};

export const usageSeriesSchema = z.object({
  ...rangeFields,
  series: z.array(z.object({ start: z.string(), ...totals })),
  total: z.object(totals),
});

export const teamUsageSchema = usageSeriesSchema.extend({
  workspaces: z.array(z.object({ id: z.number(), name: z.string().nullable(), label: z.string().nullable(), ...totals })),
});

export const adminUsageSchema = z.object({
  data: z.array(z.object({ id: z.number(), name: z.string().nullable(), start: z.string(), ...totals })),
  ...rangeFields,
});
