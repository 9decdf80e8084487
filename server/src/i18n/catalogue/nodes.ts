// Nodes (and their agents' calls), the cluster layer, realtime authorisation.
// English template → French; see ../messages.ts.
export const nodes: Record<string, string> = {
  'The hostname must be a valid host name: letters, digits and dashes, in dot-separated parts of at most 63 characters.':
    'Le nom d’hôte doit être un nom d’hôte valide : lettres, chiffres et tirets, en parties séparées par des points d’au plus 63 caractères.',
  'The :field field must be a valid IPv4 address.': 'Le champ :field doit être une adresse IPv4 valide.',
  'The :field field is required when dhcp is false.': 'Le champ :field est obligatoire quand dhcp vaut false.',
  'The code must be :length letters, like ABCXYZ.': 'Le code doit compter :length lettres, comme ABCXYZ.',
  'The code is unknown or has expired.': 'Ce code est inconnu ou a expiré.',
  'This name is already used by another node. Choose another hostname.': 'Ce nom est déjà utilisé par un autre nœud. Choisissez un autre nom d’hôte.',
  'Each address must be a string.': 'Chaque adresse doit être une chaîne de caractères.',
  'An address must not be greater than :max characters.': 'Une adresse ne doit pas dépasser :max caractères.',
  'The :field field must be a list of addresses.': 'Le champ :field doit être une liste d’adresses.',
  'The :field field must not have more than :max addresses.': 'Le champ :field ne doit pas contenir plus de :max adresses.',
  'The node changed in the cluster meanwhile. Try again.': 'Le nœud a changé entre-temps dans le cluster. Réessayez.',
  'This node has not been claimed yet: enter its code in the console first.':
    'Ce nœud n’a pas encore été revendiqué : saisissez d’abord son code dans la console.',
  'This node is disabled.': 'Ce nœud est désactivé.',
  "This node's owner account is disabled: the console refuses its agent until a platform admin enables the account again.":
    'Le compte du propriétaire de ce nœud est désactivé : la console refuse son agent jusqu’à ce qu’un administrateur de la plateforme réactive le compte.',

  // The cluster layer (cluster/).
  'No cluster is connected to this console.': 'Aucun cluster n’est connecté à cette console.',
  'The cluster cannot be reached right now. Try again in a minute.': 'Le cluster est injoignable pour le moment. Réessayez dans une minute.',
  'This workspace is still being set up in the cluster. Try again in a minute.':
    'Cet espace de travail est encore en cours de création dans le cluster. Réessayez dans une minute.',
  'The cluster answered :code.': 'Le cluster a répondu :code.',
  // A request the reconciler could not carry out (its decision_message; the reason is the cluster's own words).
  'The cluster refused this workspace: :reason': 'Le cluster a refusé cet espace de travail : :reason',
  'The cluster refused this access: :reason': 'Le cluster a refusé cet accès : :reason',
  'Only the owner of this node may choose the team it counts for.': 'Seul le propriétaire de ce nœud peut choisir l’équipe pour laquelle il compte.',
};
