import slugify from 'slugify';

/** Team names are used in cluster namespaces (`{team}-{workspace}`, at most 63 characters). */
export const MAX_TEAM_NAME_LENGTH = 40;

/**
 * The team's internal name from its short name (the product's naming rule): accents folded, lowercased,
 * spaces and every other non-alphanumeric character removed ("Edge Lab!" → "edgelab").
 * Underscores go too: the name ends up in DNS-style namespace names. May be empty.
 */
export function teamNameFromShortname(shortname: string): string {
  return slugify(shortname, { lower: true, strict: true, replacement: '', trim: true }).replace(/[^a-z0-9]/g, '');
}
