// Accounts: registration, sign-in, verification, password reset, institutional sign-in (OIDC),
// personal access tokens. English template → French; see ../messages.ts.
export const accounts: Record<string, string> = {
  'The email has already been taken.': 'Cette adresse e-mail est déjà utilisée.',
  'The password confirmation does not match.': 'La confirmation du mot de passe ne correspond pas.',
  'The password is too easy to guess.': 'Le mot de passe est trop facile à deviner.',
  'These credentials do not match our records.': 'Ces identifiants ne correspondent à aucun compte.',
  'This account is disabled.': 'Ce compte est désactivé.',
  'Thanks for registering! We have emailed you a link to verify your email address; it may take a few minutes to arrive.':
    'Merci de votre inscription ! Nous vous avons envoyé par e-mail un lien pour vérifier votre adresse ; il peut mettre quelques minutes à arriver.',
  'A new verification link has been sent to your email address.': 'Un nouveau lien de vérification a été envoyé à votre adresse e-mail.',
  'Your email address is already verified.': 'Votre adresse e-mail est déjà vérifiée.',
  'Your email address is verified.': 'Votre adresse e-mail est vérifiée.',
  'This verification link is invalid or has expired.': 'Ce lien de vérification est invalide ou a expiré.',
  'If an account exists for this address, we have emailed a password reset link.':
    'Si un compte existe pour cette adresse, nous lui avons envoyé par e-mail un lien de réinitialisation du mot de passe.',
  'Your password has been updated. Every session and personal access token of the account has been revoked.':
    'Votre mot de passe a été mis à jour. Toutes les sessions et tous les jetons d’accès personnels du compte ont été révoqués.',
  'This password reset link is invalid or has expired.': 'Ce lien de réinitialisation du mot de passe est invalide ou a expiré.',

  // Institutional sign-in (oidc/).
  'This sign-in provider is not configured.': 'Ce fournisseur de connexion n’est pas configuré.',
  'This sign-in was not started in this browser or has expired. Please start again.':
    'Cette connexion n’a pas été commencée dans ce navigateur ou a expiré. Veuillez recommencer.',
  'This sign-in code is invalid, has expired or was issued to another browser. Please sign in again.':
    'Ce code de connexion est invalide, a expiré ou a été émis pour un autre navigateur. Veuillez vous reconnecter.',
  ':provider cannot be reached right now. Try again later, or sign in with your email and password.':
    ':provider est injoignable pour le moment. Réessayez plus tard, ou connectez-vous avec votre adresse e-mail et votre mot de passe.',
  // Why a sign-in failed is a code in the redirect to /oidc/callback: the console words it (oidc.errors).
  'The password is incorrect.': 'Le mot de passe est incorrect.',
  'Set a password (Forgot password) or link another identity before unlinking this one: it is your only way to sign in.':
    'Définissez un mot de passe (Mot de passe oublié) ou associez une autre identité avant de dissocier celle-ci : c’est votre seul moyen de vous connecter.',

  // Personal access tokens.
  'You already have a token with this name.': 'Vous avez déjà un jeton d’accès portant ce nom.',
};
