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
  'This sign-in code is invalid or has expired. Please sign in again.': 'Ce code de connexion est invalide ou a expiré. Veuillez vous reconnecter.',
  'You did not allow :provider to sign you in.': 'Vous n’avez pas autorisé :provider à vous connecter.',
  'The sign-in with :provider failed. Please try again.': 'La connexion avec :provider a échoué. Veuillez réessayer.',
  'An account with the email :email already exists. Sign in with your password, then link :provider from your profile.':
    'Un compte avec l’adresse e-mail :email existe déjà. Connectez-vous avec votre mot de passe, puis associez :provider depuis votre profil.',
  'This :provider account is already linked to another account.': 'Ce compte :provider est déjà associé à un autre compte.',
  ':provider cannot be reached right now. Try again later, or sign in with your email and password.':
    ':provider est injoignable pour le moment. Réessayez plus tard, ou connectez-vous avec votre adresse e-mail et votre mot de passe.',
  ':provider did not give an email address, which an account needs.': ':provider n’a pas fourni d’adresse e-mail, dont un compte a besoin.',
  'The password is incorrect.': 'Le mot de passe est incorrect.',
  'Set a password (Forgot password) or link another identity before unlinking this one: it is your only way to sign in.':
    'Définissez un mot de passe (Mot de passe oublié) ou associez une autre identité avant de dissocier celle-ci : c’est votre seul moyen de vous connecter.',

  // Personal access tokens.
  'You already have a token with this name.': 'Vous avez déjà un jeton d’accès portant ce nom.',
};
