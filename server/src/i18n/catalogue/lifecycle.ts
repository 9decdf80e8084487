// Allocations over time: lifecycle settings, end dates, renewals, the policy's versions.
// English template → French; see ../messages.ts.
export const lifecycle: Record<string, string> = {
  'Whole days.': 'Un nombre entier de jours.',
  'At least 1 day.': 'Au moins 1 jour.',
  'At most :most days.': 'Au plus :most jours.',
  'Whole hours.': 'Un nombre entier d’heures.',
  'At least 1 hour.': 'Au moins 1 heure.',
  'At most 1440 hours.': 'Au plus 1440 heures.',
  'The last warning must come closer to the end than the first one.': 'Le dernier avertissement doit venir plus près de la fin que le premier.',
  'The text field is required.': 'Le champ texte est obligatoire.',
  'The end date must be in the future.': 'La date de fin doit être dans le futur.',
  'The end date must be within 10 years.': 'La date de fin doit être dans les 10 ans.',
  'The :field field must be a date-time (ISO 8601, e.g. 2030-06-30T22:00:00Z).': 'Le champ :field doit être une date et une heure (ISO 8601, par ex. 2030-06-30T22:00:00Z).',
  'The membership this invitation offers has already ended.': 'L’adhésion que propose cette invitation est déjà terminée.',
  'An end date applies only to approving a request to join a team.': 'Une date de fin ne s’applique qu’à l’approbation d’une demande pour rejoindre une équipe.',
};
