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
  'The days field must be a whole number of days.': 'Le champ days doit être un nombre entier de jours.',
  'The days field must be at least 1.': 'Le champ days doit valoir au moins 1.',
  'The days field must not be greater than :max.': 'Le champ days ne doit pas dépasser :max.',
  'The until field must be an ISO 8601 date-time.': 'Le champ until doit être une date et heure ISO 8601.',
  'The days field is required.': 'Le champ days est obligatoire.',
  'Give either days or until, not both.': 'Donnez days ou until, pas les deux.',
  'The until date must be in the future.': 'La date until doit être dans le futur.',
  'Only the managers of this workspace or of its team may ask to renew it.': 'Seuls les responsables de cet espace de travail ou de son équipe peuvent demander son renouvellement.',
  'Only the owners and managers of this team may ask to renew it.': 'Seuls les propriétaires et responsables de cette équipe peuvent demander son renouvellement.',
  'The workspace no longer exists.': 'L’espace de travail n’existe plus.',
  'The team no longer exists.': 'L’équipe n’existe plus.',
};
