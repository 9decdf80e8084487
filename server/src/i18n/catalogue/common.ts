// Messages every domain shares: the generic field rules (http/schemas.ts, http/pagination.ts and
// the domain schemas built on them) and the answers the HTTP layer writes itself (http/errors.ts,
// http/authenticate.ts). English template → French; see ../messages.ts for the placeholders.
export const common: Record<string, string> = {
  // Generic field rules.
  'The :field field is required.': 'Le champ :field est obligatoire.',
  'The :field field must be a string.': 'Le champ :field doit être une chaîne de caractères.',
  'The :field field must not be greater than :max characters.': 'Le champ :field ne doit pas dépasser :max caractères.',
  'The :field field must be at least :min characters.': 'Le champ :field doit contenir au moins :min caractères.',
  'The :field field must not contain line breaks or other control characters.':
    'Le champ :field ne doit contenir ni saut de ligne ni autre caractère de contrôle.',
  'The :field field contains an invalid character.': 'Le champ :field contient un caractère invalide.',
  'The :field field must be an integer.': 'Le champ :field doit être un nombre entier.',
  'The :field field must be a whole number.': 'Le champ :field doit être un nombre entier.',
  'The :field field must be a number.': 'Le champ :field doit être un nombre.',
  'The :field field must be between :min and :max.': 'Le champ :field doit être compris entre :min et :max.',
  'The :field field must be at least :min.': 'Le champ :field doit valoir au moins :min.',
  'The :field field must be true or false.': 'Le champ :field doit valoir true ou false.',
  'The :field field must be 1 or 0.': 'Le champ :field doit valoir 1 ou 0.',
  'The :field field must be an object.': 'Le champ :field doit être un objet.',
  'The :field field must be an array.': 'Le champ :field doit être une liste.',
  'The :field field must be a list of ids.': 'Le champ :field doit être une liste d’identifiants.',
  'The :field field must have at least :min item.': 'Le champ :field doit contenir au moins :min élément.',
  'The :field field must not have more than :max items.': 'Le champ :field ne doit pas contenir plus de :max éléments.',
  'The :field field format is invalid.': 'Le format du champ :field est invalide.',
  // Before the field's: "The selected type filter is invalid." would match it too.
  'The selected :field filter is invalid.': 'La valeur choisie pour le filtre :field est invalide.',
  'The selected :field is invalid.': 'La valeur choisie pour le champ :field est invalide.',
  'The :field field must be one of :values.': 'Le champ :field doit valoir l’une de ces valeurs : :values.',
  'The :field field must be greater than 0.': 'Le champ :field doit être supérieur à 0.',
  'The order field must be asc or desc.': 'Le champ ordre doit valoir asc ou desc.',
  'The value is invalid.': 'La valeur est invalide.',
  'The given data was invalid.': 'Les données envoyées sont invalides.',
  'Invalid email': 'Adresse e-mail invalide',
  'Invalid URL': 'URL invalide',
  'Invalid name': 'Nom invalide',
  'Each id must be an integer.': 'Chaque identifiant doit être un nombre entier.',

  // Filters of the lists (`filter[...]` in the query string).
  'The :field filter must be true or false.': 'Le filtre :field doit valoir true ou false.',
  'The :field filter must be an id.': 'Le filtre :field doit être un identifiant.',
  'The :field filter must be a date.': 'Le filtre :field doit être une date.',
  'The :field filter must be a valid date.': 'Le filtre :field doit être une date valide.',
  'The :field filter must be an ISO 8601 date (YYYY-MM-DD, or a date and time with a time zone).':
    'Le filtre :field doit être une date ISO 8601 (AAAA-MM-JJ, ou une date et une heure avec un fuseau horaire).',
  'The :field filter must be one of :values.': 'Le filtre :field doit valoir l’une de ces valeurs : :values.',
  'The :field filter must be a list of ids.': 'Le filtre :field doit être une liste d’identifiants.',
  'The :field filter must not have more than :max items.': 'Le filtre :field ne doit pas contenir plus de :max éléments.',
  'The selected sort is invalid. Sort by :columns.': 'Le tri choisi est invalide. Triez par :columns.',

  // The HTTP layer's own answers.
  'The request body must be a JSON object.': 'Le corps de la requête doit être un objet JSON.',
  'The request body is not valid JSON.': 'Le corps de la requête n’est pas du JSON valide.',
  'The request body is too large.': 'Le corps de la requête est trop volumineux.',
  'Send the request body as JSON (Content-Type: application/json).':
    'Envoyez le corps de la requête en JSON (Content-Type: application/json).',
  'The Content-Length header does not match the body.': 'L’en-tête Content-Length ne correspond pas au corps de la requête.',
  'The request address is malformed.': 'L’adresse de la requête est mal formée.',
  'Invalid request.': 'Requête invalide.',
  'The service is briefly unavailable. Try again in a few seconds.':
    'Le service est momentanément indisponible. Réessayez dans quelques secondes.',
  'Server error.': 'Erreur du serveur.',
  'Too many attempts. Try again in less than a minute.': 'Trop de tentatives. Réessayez dans moins d’une minute.',
  'Too many attempts. Try again in 1 minute.': 'Trop de tentatives. Réessayez dans 1 minute.',
  'Too many attempts. Try again in :minutes minutes.': 'Trop de tentatives. Réessayez dans :minutes minutes.',
  'Unauthenticated.': 'Non authentifié.',
  'This action is unauthorized.': 'Cette action n’est pas autorisée.',
  'Not found.': 'Introuvable.',
  // The onboarding gate (http/authenticate.ts).
  'Your email address is not verified.': 'Votre adresse e-mail n’est pas vérifiée.',
  'You must accept the acceptable use policy.': 'Vous devez accepter la charte d’utilisation.',
  // Last: the broadest patterns, after every more specific wording above and in the domains'.
  'The :field field must not be greater than :max.': 'Le champ :field ne doit pas dépasser :max.',
};
