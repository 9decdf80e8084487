// Platform administration: the admin lists' filters, bulk actions on people, teams and
// workspaces, token revocation. English template → French; see ../messages.ts.
export const admin: Record<string, string> = {
  'You cannot disable your own account.': 'Vous ne pouvez pas désactiver votre propre compte.',
  'This is the last enabled platform admin: make someone else an admin first.':
    'C’est le dernier administrateur actif de la plateforme : nommez d’abord quelqu’un d’autre administrateur.',
  'You cannot remove your own admin rights.': 'Vous ne pouvez pas retirer vos propres droits d’administrateur.',
  'Give enabled or admin.': 'Donnez enabled ou admin.',
  'Give either ids or filter.': 'Donnez soit ids, soit filter.',
  'Give either ids or filter, not both.': 'Donnez soit ids, soit filter, pas les deux.',
  'The :field field must be disable or enable.': 'Le champ :field doit valoir disable ou enable.',
  'The :field field must be suspend or enable.': 'Le champ :field doit valoir suspend ou enable.',
  'The :field field must be delete.': 'Le champ :field doit valoir delete.',
  'The :field filter must be info, warning or error.': 'Le filtre :field doit valoir info, warning ou error.',
  'The :field filter is too long.': 'Le filtre :field est trop long.',
  'The :field filter must be a user id or all.': 'Le filtre :field doit être un identifiant de personne ou all.',
  '1 personal access token revoked.': '1 jeton d’accès personnel révoqué.',
  ':count personal access tokens revoked.': ':count jetons d’accès personnels révoqués.',
  'The active_within_days filter must be a whole number of days from 1 to :max_active_days.':
    'Le filtre active_within_days doit être un nombre entier de jours, de 1 à :max_active_days.',
  'The filter.active_within_days field must be a whole number of days from 1 to 3650.':
    'Le champ filter.active_within_days doit être un nombre entier de jours, de 1 à 3650.',
};
