import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

// The admin lists as CSV files (GET /api/admin/{users,teams,workspaces,nodes,activity}.csv).
//
// Rows are read from the database in keyset-paged batches (EXPORT_BATCH rows by id) and flow
// through csv-stringify into the reply as a stream with backpressure: the next batch is only
// queried once the client has taken the previous ones, so memory holds about one batch
// whatever the size of the export (100,000 users included), never the whole list.
//
// Every cell is neutralised against formula injection (OWASP "CSV Injection"): a spreadsheet
// opening the file must show a last name `=HYPERLINK(...)` as text, never run it.

/** Rows per database query of an export. */
export const EXPORT_BATCH = 1000;

/** What spreadsheets read as the start of a formula (OWASP): = + - @, tab and carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
const FORMULA_SIGN = /^[=+\-@]/;
/**
 * What can come first without being seen: format characters (Unicode Cf: zero-width space,
 * BOM, direction marks) and other default-ignorable code points (Hangul fillers, variation
 * selectors). With white space too (a spreadsheet may trim it) in front of = + - @.
 */
const LEADING_INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]+/u;
const LEADING_INVISIBLE_OR_SPACE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}\s]+/u;
/** Cells that start with one of these cannot become a formula start by normalisation. */
const PLAIN_START = /^[A-Za-z0-9]/;

/**
 * Whether a spreadsheet could read the text as a formula: it starts with = + - @, a tab or a
 * carriage return, also behind invisible characters (and, for = + - @, white space), and also
 * once compatibility forms are folded (NFKC: fullwidth ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫).
 */
export function formulaLike(value: string): boolean {
  if (PLAIN_START.test(value)) return false;
  return [value, value.normalize('NFKC')].some(
    (text) => FORMULA_START.test(text.replace(LEADING_INVISIBLE, '')) || FORMULA_SIGN.test(text.replace(LEADING_INVISIBLE_OR_SPACE, '')),
  );
}

/**
 * A cell's text, made inert for spreadsheets: formula-like text (above) gets a leading single
 * quote, which Excel, LibreOffice and Google Sheets take as "text"; the rest of it is kept as
 * it was. (Quoting for CSV itself is csv-stringify's job.)
 */
export function neutralizeCell(value: string): string {
  return formulaLike(value) ? `'${value}` : value;
}

export type CellValue = string | number | boolean | null | undefined;

/** A cell as written: empty for null, true/false for flags, numbers as digits, text neutralised. */
export function csvCell(value: CellValue): string {
  if (value === null || value === undefined) return '';
  return neutralizeCell(String(value));
}

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CellValue;
}

/** Items joined in one cell: `Ada Lovelace (owner); Grace Hopper (member)`. */
export const joined = <T>(items: T[], label: (item: T) => string): string => items.map(label).join('; ');

/**
 * Batches of a keyset-paged query: `fetch(after, limit)` answers up to `limit` rows past the
 * row whose id is `after` (none: from the start) in id order, ascending or descending. Unlike
 * offsets, each query costs the same however far the export has gone, and rows added
 * meanwhile neither shift nor repeat the others. Stops after a short batch.
 */
export async function* keysetBatches<Row extends { id: number }>(
  fetch: (after: number | undefined, limit: number) => Promise<Row[]>,
  size: number = EXPORT_BATCH,
): AsyncGenerator<Row[]> {
  let after: number | undefined;
  for (;;) {
    const batch = await fetch(after, size);
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    after = batch[batch.length - 1]!.id;
  }
}

/** Each batch turned into other rows (e.g. presented with their relations), one batch at a time. */
export async function* mapBatches<In, Out>(batches: AsyncIterable<In[]>, map: (batch: In[]) => Promise<Out[]>): AsyncGenerator<Out[]> {
  for await (const batch of batches) yield await map(batch);
}

/**
 * The CSV text (header line, then one line per row, CRLF as RFC 4180 says) as a byte stream.
 * Readable.from pulls the next row from `batches` only when csv-stringify wants more, and
 * pipeline carries the reply's backpressure back to it; destroying the result (the client
 * went away) stops the batches, and a failing query destroys it with that error.
 */
export function csvStream<Row>(columns: CsvColumn<Row>[], batches: AsyncIterable<Row[]>): Readable {
  async function* records() {
    for await (const batch of batches) {
      for (const row of batch) yield columns.map((column) => csvCell(column.value(row)));
    }
  }
  const stringifier = stringify({ header: true, columns: columns.map((column) => csvCell(column.header)), record_delimiter: 'windows' });
  // The callback only observes: pipeline has already destroyed both streams on failure, and
  // Fastify reports the error (a JSON 500 before the first byte, a cut connection after).
  return pipeline(Readable.from(records()), stringifier, () => undefined);
}

/** `users-2026-11-22.csv`: the list's name and today's date (UTC). */
export const exportFilename = (list: string, now: Date = new Date()) => `${list}-${now.toISOString().slice(0, 10)}.csv`;

/** Sends a CSV stream as a download named after the list. */
export function sendCsv(reply: FastifyReply, list: string, stream: Readable): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${exportFilename(list)}"`)
    .header('Cache-Control', 'no-store')
    .send(stream);
}

/** The OpenAPI part of an export route: a text/csv answer (the stream skips the serializer). */
export const csvResponse = (description: string) => ({
  produces: ['text/csv'],
  response: { 200: z.string().describe(description) },
});

/** At most this many rows named in one export's `filter[ids]`. */
export const MAX_EXPORT_IDS = 1000;

/** Items of `a,b,c` or of a repeated key (`?k=a&k=b,c`), trimmed, empty ones dropped. */
const listItems = (value: string | string[]) =>
  [value]
    .flat()
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '');

/**
 * `filter[ids]`: the export of just these rows (the lists' "Export selected"), as `1,2,3` or a
 * repeated key; 1 to MAX_EXPORT_IDS items, each accepted by `valid`, else a 422 on the filter.
 */
const rowsFilter = <T>(message: string, valid: (item: string) => boolean, parse: (item: string) => T) =>
  z
    .union([z.string(), z.array(z.string())], { error: message })
    .transform((value, context) => {
      const items = listItems(value);
      if (items.length === 0 || !items.every(valid)) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      if (items.length > MAX_EXPORT_IDS) {
        context.addIssue({ code: 'custom', message: `The ids filter must not have more than ${MAX_EXPORT_IDS} items.` });
        return z.NEVER;
      }
      return [...new Set(items.map(parse))];
    })
    .optional();

/** `filter[ids]` of record ids (the activity export). */
export const exportIdsFilter = () =>
  rowsFilter('The ids filter must be a list of ids.', (item) => /^\d{1,10}$/.test(item) && Number(item) >= 1 && Number(item) <= 2_147_483_647, Number);

/** `filter[ids]` of names (the nodes export: a node's id in the admin list is its name). */
export const exportNamesFilter = () =>
  rowsFilter('The ids filter must be a list of node names.', (item) => item.length <= 253 && !/\p{Cc}/u.test(item), (item) => item);
