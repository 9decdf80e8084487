import slugify from 'slugify';

/** A team's internal name from its short name: lowercased, spaces and non-word characters removed. */
export const teamNameFromShortname = (shortname: string): string =>
  shortname.toLowerCase().replace(/\s+/g, '').replace(/\W/g, '');

/**
 * A workspace name from its label: accents folded, lowercased, spaces become dashes,
 * other characters removed (repeated and edge dashes dropped, so the result can match
 * ^[a-z0-9][a-z0-9-]*[a-z0-9]$).
 */
export const workspaceNameFromLabel = (label: string): string =>
  slugify(label.normalize('NFD').replace(/[\u0300-\u036f]/g, ''), { lower: true, strict: true, trim: true })
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
