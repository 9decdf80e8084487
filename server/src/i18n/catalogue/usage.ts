// Usage you can see (usage/): the range, granularity and grouping of the usage endpoints.
// English template → French; see ../messages.ts.
export const usage: Record<string, string> = {
  'The :field field must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).':
    'Le champ :field doit être une date ISO 8601 (AAAA-MM-JJ, ou une date et une heure avec un fuseau horaire).',
  'The :field field must be a valid date.': 'Le champ :field doit être une date valide.',
  'The to date must not be before the from date.': 'La date to ne doit pas précéder la date from.',
  'The from date must not be in the future.': 'La date from ne doit pas être dans le futur.',
  'The range from from to to must not be longer than :max_range_days days.': 'La période de from à to ne doit pas dépasser :max_range_days jours.',
  'The granularity field must be hour, day or month.': 'Le champ granularity doit valoir hour, day ou month.',
  'The group_by field must be team, workspace or user.': 'Le champ group_by doit valoir team, workspace ou user.',
  'The format field must be json or csv.': 'Le champ format doit valoir json ou csv.',
  "Only the team's members and platform admins can see its usage.":
    'Seuls les membres de l’équipe et les administrateurs de la plateforme peuvent voir sa consommation.',
  "Only the workspace's members, its team's members and platform admins can see its usage.":
    'Seuls les membres de l’espace de travail, ceux de son équipe et les administrateurs de la plateforme peuvent voir sa consommation.',
};
