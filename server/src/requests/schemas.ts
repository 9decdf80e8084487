import { z } from 'zod';
import { paginationQuery } from '../http/pagination.js';
import { idField, idParam, optionalLineText, optionalText, requiredMultilineText, requiredText } from '../http/schemas.js';
import { MAX_WORKSPACE_NAME_LENGTH, WORKSPACE_NAME_PATTERN } from '../workspaces/naming.js';

export const JOINING_CATEGORIES = ['Research', 'Teaching', 'Other'] as const;

const httpUrl = (field: string) =>
  requiredText(field).refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'Invalid URL');

const workspaceName = () =>
  requiredText('name', MAX_WORKSPACE_NAME_LENGTH).regex(WORKSPACE_NAME_PATTERN, 'Invalid name');

export const createTeamBody = z.object({
  fullname: requiredText('fullname'),
  shortname: requiredText('shortname', 100),
  affiliation: requiredText('affiliation'),
  country: requiredText('country'),
  url: httpUrl('url'),
  joining_reason: requiredMultilineText('joining_reason', 2000),
  joining_category: z.enum(JOINING_CATEGORIES, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ''
        ? 'The joining_category field is required.'
        : 'The selected joining_category is invalid.',
  }),
  city: optionalLineText('city', 255),
  // Always derived from shortname; accepted (and ignored) because Laravel-era consoles send it.
  name: z.unknown().optional(),
});

export const joinTeamBody = z.object({ team_id: idField('team_id'), message: optionalText('message') });

export const createWorkspaceBody = z.object({
  label: requiredText('label'),
  name: workspaceName(),
  team_id: idField('team_id'),
  description: optionalText('description'),
  message: optionalText('message'),
});

export const joinWorkspaceBody = z.object({
  team_id: idField('team_id'),
  name: requiredText('name'),
  message: optionalText('message'),
});

export const decisionBody = z.object({
  action: z.enum(['approve', 'deny'], {
    error: (issue) =>
      issue.input === undefined || issue.input === null ? 'The action field is required.' : 'The selected action is invalid.',
  }),
  message: optionalText('message'),
});

export const requestIdParams = z.object({ id: idParam() });

export const requestListQuery = z.object({
  status: z.enum(['Pending', 'Approved', 'Denied', 'Error'], { error: 'The selected status is invalid.' }).optional(),
  ...paginationQuery,
});
