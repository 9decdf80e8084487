import { z } from 'zod';

// Lists answer a JSON array; with `page` they answer Laravel's paginator
// `{data, meta: {current_page, per_page, total, last_page}}` (docs/api-contract.md).

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 25;

const wholeNumber = (field: string, min: number, max: number) =>
  z.coerce
    .number({ error: `The ${field} field must be a number.` })
    .int(`The ${field} field must be a whole number.`)
    .min(min, `The ${field} field must be between ${min} and ${max}.`)
    .max(max, `The ${field} field must be between ${min} and ${max}.`);

/** `page` and `per_page` query fields. */
export const paginationQuery = {
  page: wholeNumber('page', 1, 1_000_000).optional(),
  per_page: wholeNumber('per_page', 1, MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
};

export const paginatorSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    meta: z.object({ current_page: z.number(), per_page: z.number(), total: z.number(), last_page: z.number() }),
  });

/** The response schema of a list: an array, or the paginator when `page` was given. */
export const listSchema = <T extends z.ZodType>(item: T) => z.union([z.array(item), paginatorSchema(item)]);

export interface Page {
  page: number;
  perPage: number;
}

export function paginated<T>(data: T[], total: number, page: Page) {
  return {
    data,
    meta: { current_page: page.page, per_page: page.perPage, total, last_page: Math.max(1, Math.ceil(total / page.perPage)) },
  };
}
