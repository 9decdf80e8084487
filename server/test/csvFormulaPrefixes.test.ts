import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, formulaLike, neutralizeCell } from '../src/http/csvExport.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld } from './teamFixtures.js';

// The CSV exports' formula guard against what hides a formula start from a plain check of the
// first character: invisible format characters, white space and compatibility forms that a
// spreadsheet (or the text normalisation of whoever opens the file) may skip or fold.

const FORMULA = 'HYPERLINK("http://evil.example","click")';

/** A prefix a cell may start with, then `=` + FORMULA (or the prefix is itself the sign). */
const DANGEROUS: [string, string][] = [
  ['ASCII =', '='],
  ['ASCII +', '+'],
  ['ASCII -', '-'],
  ['ASCII @', '@'],
  ['tab', '\t'],
  ['carriage return', '\r'],
  ['fullwidth ＝ (U+FF1D)', '\uFF1D'],
  ['fullwidth ＋ (U+FF0B)', '\uFF0B'],
  ['fullwidth － (U+FF0D)', '\uFF0D'],
  ['fullwidth ＠ (U+FF20)', '\uFF20'],
  ['small ﹦ (U+FE66)', '\uFE66'],
  ['small ﹢ (U+FE62)', '\uFE62'],
  ['small ﹣ (U+FE63)', '\uFE63'],
  ['small ﹫ (U+FE6B)', '\uFE6B'],
  ['zero-width space then =', '\u200B='],
  ['BOM then =', '\uFEFF='],
  ['left-to-right mark then =', '\u200E='],
  ['right-to-left override then +', '\u202E+'],
  ['word joiner then @', '\u2060@'],
  ['soft hyphen then -', '\u00AD-'],
  ['zero-width joiner then fullwidth ＝', '\u200D\uFF1D'],
  ['Hangul filler then =', '\u3164='],
  ['space then =', ' ='],
  ['no-break space then =', '\u00A0='],
  ['ideographic space then ＝', '\u3000\uFF1D'],
  ['newline then =', '\n='],
  ['zero-width space then tab', '\u200B\t'],
  ['BOM then carriage return', '\uFEFF\r'],
  ['spaces and invisibles mixed then =', '\u200B \u200B\u00A0='],
];

/** Text that must come out exactly as it went in. */
const HARMLESS = ['Ada', 'Zoë', '日本語', '1+1', 'a=b', "'quoted", '', '\u200BAda', ' Ada', 'ｈｅｌｌｏ', '＃1', '2026-11-22T10:00:00.000Z', 'x-1'];

describe('formulaLike / neutralizeCell', () => {
  it.each(DANGEROUS)('%s is a formula start, and gets a leading quote', (_name, prefix) => {
    const value = `${prefix}${FORMULA}`;
    expect(formulaLike(value)).toBe(true);
    expect(neutralizeCell(value)).toBe(`'${value}`);
    expect(csvCell(value)).toBe(`'${value}`);
  });

  it('leaves other text alone, invisible characters in front of ordinary text included', () => {
    for (const value of HARMLESS) {
      expect(formulaLike(value), JSON.stringify(value)).toBe(false);
      expect(neutralizeCell(value)).toBe(value);
    }
  });
});

describe('GET /api/admin/users.csv with formula starts hidden behind invisible or fullwidth characters', () => {
  const prefix = `hidden${process.pid}`;
  let ctx: TestContext;
  let admin: string;
  const ids = new Map<number, string>();

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = (await createWorld(ctx)).people.admin.token;
    const now = timestamp();
    for (const [index, [, start]] of DANGEROUS.entries()) {
      const firstname = `${start}${FORMULA}`;
      const row = await ctx.db
        .insertInto('users')
        .values({
          firstname,
          lastname: `${start}1`,
          email: `${prefix}.${index}@hidden.example.org`,
          password_hash: 'not-a-real-hash',
          email_verified_at: now,
          aup_accepted_at: now,
          admin: 0,
          enabled: 1,
          authority: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(row.id, start);
    }
  });
  afterAll(() => ctx?.close());

  it('writes every such name with a leading quote, and the rest of it unchanged', async () => {
    const response = await ctx.inject('GET', `/api/admin/users.csv?q=${prefix}`, { token: admin });
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    const rows = parse(response.body) as string[][];
    expect(rows[0]!.slice(0, 3)).toEqual(['id', 'firstname', 'lastname']);
    const body = rows.slice(1);
    expect(body).toHaveLength(DANGEROUS.length);
    for (const row of body) {
      const start = ids.get(Number(row[0]))!;
      expect(row[1], JSON.stringify(start)).toBe(`'${start}${FORMULA}`);
      expect(row[2], JSON.stringify(start)).toBe(`'${start}1`);
    }
    // No cell of the file is a formula start, however it is read.
    for (const row of rows) for (const cell of row) expect(formulaLike(cell), JSON.stringify(cell)).toBe(false);
  });
});
