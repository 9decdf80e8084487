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
};
