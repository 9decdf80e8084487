// Teams, their members and invitations, workspaces (and their quotas), and the requests that
// create or join them. English template → French; see ../messages.ts for the placeholders.
export const teams: Record<string, string> = {
  // Requests (requests/).
  'A team with this short name already exists.': 'Une équipe avec ce nom court existe déjà.',
  'A team with this name already exists.': 'Une équipe avec ce nom existe déjà.',
  'A workspace with this name already exists in this team.': 'Un espace de travail avec ce nom existe déjà dans cette équipe.',
  'A request for this is already pending.': 'Une demande pour cela est déjà en attente.',
  'This request has already been decided.': 'Cette demande a déjà été traitée.',
  'You may not decide this request.': 'Vous ne pouvez pas décider de cette demande.',
  'The team no longer exists.': 'L’équipe n’existe plus.',
  'The workspace no longer exists.': 'L’espace de travail n’existe plus.',
  'You are already a member of this team.': 'Vous êtes déjà membre de cette équipe.',
  'You are already a member of this workspace.': 'Vous êtes déjà membre de cet espace de travail.',
  'The :field field must contain at least one letter or digit.': 'Le champ :field doit contenir au moins une lettre ou un chiffre.',
  'The :field field must give a name of at most :max letters and digits.': 'Le champ :field doit donner un nom d’au plus :max lettres et chiffres.',
  'The :field field must not be greater than :max characters in this team.': 'Le champ :field ne doit pas dépasser :max caractères dans cette équipe.',

  // Members of teams and workspaces.
  'You are not a member of this team.': 'Vous n’êtes pas membre de cette équipe.',
  'You are no longer a member of this team.': 'Vous n’êtes plus membre de cette équipe.',
  'You are not a member of this workspace.': 'Vous n’êtes pas membre de cet espace de travail.',
  'This person is not a member of this team.': 'Cette personne n’est pas membre de cette équipe.',
  'This person is not a member of this workspace.': 'Cette personne n’est pas membre de cet espace de travail.',
  'A team keeps at least one owner: make someone else an owner first.':
    'Une équipe garde au moins un propriétaire : nommez d’abord quelqu’un d’autre propriétaire.',
  'Only an owner can change or remove an owner, or make someone an owner.':
    'Seul un propriétaire peut modifier ou retirer un propriétaire, ou nommer quelqu’un propriétaire.',
  "Only the team's owners and managers can remove members.": 'Seuls les propriétaires et gestionnaires de l’équipe peuvent retirer des membres.',
  "Only the team's owners and managers can change roles.": 'Seuls les propriétaires et gestionnaires de l’équipe peuvent modifier les rôles.',
  "Only the workspace's managers and its team's managers can remove members.":
    'Seuls les gestionnaires de l’espace de travail et ceux de son équipe peuvent retirer des membres.',

  // Invitations (invitations/).
  'This invitation link is invalid.': 'Ce lien d’invitation est invalide.',
  'This invitation has expired. Ask the team for a new one.': 'Cette invitation a expiré. Demandez-en une nouvelle à l’équipe.',
  'This invitation has already been used.': 'Cette invitation a déjà été utilisée.',
  'This invitation has been withdrawn.': 'Cette invitation a été retirée.',
  'This invitation is no longer pending.': 'Cette invitation n’est plus en attente.',
  "Only the team's members and platform admins can see its quotas.": 'Seuls les membres de l’équipe et les administrateurs de la plateforme peuvent voir ses quotas.',
  "Only the team's owners and managers can invite people.": 'Seuls les propriétaires et gestionnaires de l’équipe peuvent inviter des personnes.',
  'You cannot invite someone with a role above your own.': 'Vous ne pouvez pas inviter quelqu’un avec un rôle supérieur au vôtre.',
  'This person is already a member of this team.': 'Cette personne est déjà membre de cette équipe.',
  'An invitation to this address is already pending: resend it instead.': 'Une invitation à cette adresse est déjà en attente : renvoyez-la plutôt.',
  'This invitation was sent to :invited, but you are signed in as :current. Sign out, then sign in or register with :again to accept it.':
    'Cette invitation a été envoyée à :invited, mais vous êtes connecté en tant que :current. Déconnectez-vous, puis connectez-vous ou inscrivez-vous avec :again pour l’accepter.',
  'You joined :team.': 'Vous avez rejoint :team.',
  // Accepting is refused while the grant no longer holds (invitations/rights.ts).
  'This team is suspended: its invitations cannot be accepted until it is enabled again.':
    'Cette équipe est suspendue : ses invitations ne peuvent pas être acceptées tant qu’elle n’est pas réactivée.',
  'The person who sent this invitation can no longer invite people to this team with this role. Ask the team to send it again.':
    'La personne qui a envoyé cette invitation ne peut plus inviter quelqu’un dans cette équipe avec ce rôle. Demandez à l’équipe de vous la renvoyer.',
  'This team no longer exists.': 'Cette équipe n’existe plus.',
  // Invitation budgets (invitations/budget.ts).
  'This team may send :max invitations per :hours h and has reached that limit. Try again in less than a minute.':
    'Cette équipe peut envoyer :max invitations par :hours h et a atteint cette limite. Réessayez dans moins d’une minute.',
  'This team may send :max invitations per :hours h and has reached that limit. Try again in 1 minute.':
    'Cette équipe peut envoyer :max invitations par :hours h et a atteint cette limite. Réessayez dans 1 minute.',
  'This team may send :max invitations per :hours h and has reached that limit. Try again in :minutes minutes.':
    'Cette équipe peut envoyer :max invitations par :hours h et a atteint cette limite. Réessayez dans :minutes minutes.',
  'You may send :max invitations per :hours h for this team and have reached that limit. Try again in less than a minute.':
    'Vous pouvez envoyer :max invitations par :hours h pour cette équipe et avez atteint cette limite. Réessayez dans moins d’une minute.',
  'You may send :max invitations per :hours h for this team and have reached that limit. Try again in 1 minute.':
    'Vous pouvez envoyer :max invitations par :hours h pour cette équipe et avez atteint cette limite. Réessayez dans 1 minute.',
  'You may send :max invitations per :hours h for this team and have reached that limit. Try again in :minutes minutes.':
    'Vous pouvez envoyer :max invitations par :hours h pour cette équipe et avez atteint cette limite. Réessayez dans :minutes minutes.',
  'You may send :max invitations per :hours h, whatever the team, and have reached that limit. Try again in less than a minute.':
    'Vous pouvez envoyer :max invitations par :hours h, toutes équipes confondues, et avez atteint cette limite. Réessayez dans moins d’une minute.',
  'You may send :max invitations per :hours h, whatever the team, and have reached that limit. Try again in 1 minute.':
    'Vous pouvez envoyer :max invitations par :hours h, toutes équipes confondues, et avez atteint cette limite. Réessayez dans 1 minute.',
  'You may send :max invitations per :hours h, whatever the team, and have reached that limit. Try again in :minutes minutes.':
    'Vous pouvez envoyer :max invitations par :hours h, toutes équipes confondues, et avez atteint cette limite. Réessayez dans :minutes minutes.',
  'As a platform admin you may send :max invitations per :hours h, whatever the team, and have reached that limit. Try again in less than a minute.':
    'En tant qu’administrateur de la plateforme, vous pouvez envoyer :max invitations par :hours h, toutes équipes confondues, et avez atteint cette limite. Réessayez dans moins d’une minute.',
  'As a platform admin you may send :max invitations per :hours h, whatever the team, and have reached that limit. Try again in 1 minute.':
    'En tant qu’administrateur de la plateforme, vous pouvez envoyer :max invitations par :hours h, toutes équipes confondues, et avez atteint cette limite. Réessayez dans 1 minute.',
  'As a platform admin you may send :max invitations per :hours h, whatever the team, and have reached that limit. Try again in :minutes minutes.':
    'En tant qu’administrateur de la plateforme, vous pouvez envoyer :max invitations par :hours h, toutes équipes confondues, et avez atteint cette limite. Réessayez dans :minutes minutes.',
  'The :field field must be a list of workspace ids.': 'Le champ :field doit être une liste d’identifiants d’espaces de travail.',
  // Many addresses in one call (invitations/batch.ts).
  'The emails field must be a list of addresses.': 'Le champ adresses doit être une liste d’adresses.',
  'Each address in the emails field must be a string.': 'Chaque adresse du champ adresses doit être une chaîne de caractères.',
  'Give either email or emails, not both.': 'Donnez soit email, soit emails, pas les deux.',

  // Deleting a team (admin/teams.ts).
  'The team :team still has a workspace: :name. Delete it first, or delete the team with its workspaces.':
    'L’équipe :team a encore un espace de travail : :name. Supprimez-le d’abord, ou supprimez l’équipe avec ses espaces de travail.',
  'The team :team still has :count workspaces: :names. Delete them first, or delete the team with its workspaces.':
    'L’équipe :team a encore :count espaces de travail : :names. Supprimez-les d’abord, ou supprimez l’équipe avec ses espaces de travail.',

  // Why the console denied a pending request itself (its decision_message, shown and mailed to the
  // requester): its team or workspace was deleted (admin/teams.ts, workspaces/deletion.ts).
  'The team was deleted.': 'L’équipe a été supprimée.',
  'The workspace was deleted.': 'L’espace de travail a été supprimé.',

  // Workspace quotas (workspaces/quota.ts).
  'The :field field must be a CPU quantity such as 4, 0.5 or 500m.': 'Le champ :field doit être une quantité de CPU comme 4, 0.5 ou 500m.',
  'The :field field must not be greater than :max CPUs.': 'Le champ :field ne doit pas dépasser :max CPU.',
  'The :field field must be a size such as 512Mi, 16Gi or 1Ti.': 'Le champ :field doit être une taille comme 512Mi, 16Gi ou 1Ti.',
  'The :field field must be an object with cpu, memory, pods and storage.': 'Le champ :field doit être un objet avec cpu, memory, pods et storage.',

  // Team quotas (teams/quota.ts) and requests for more quota (requests/quotaRequests.ts).
  'The team has :left CPUs left of :hard; this workspace needs :needed.': 'L’équipe a encore :left CPU sur :hard ; cet espace de travail en demande :needed.',
  'The team has :left of memory left of :hard; this workspace needs :needed.':
    'L’équipe a encore :left de mémoire sur :hard ; cet espace de travail en demande :needed.',
  'The team has :left pods left of :hard; this workspace needs :needed.': 'L’équipe a encore :left pods sur :hard ; cet espace de travail en demande :needed.',
  'The team has :left of storage left of :hard; this workspace needs :needed.':
    'L’équipe a encore :left de stockage sur :hard ; cet espace de travail en demande :needed.',
  'The team quota for cpu cannot be lower than the :allocated its workspaces already hold.':
    'Le quota d’équipe en CPU ne peut pas être inférieur aux :allocated que ses espaces de travail détiennent déjà.',
  'The team quota for memory cannot be lower than the :allocated its workspaces already hold.':
    'Le quota d’équipe en mémoire ne peut pas être inférieur aux :allocated que ses espaces de travail détiennent déjà.',
  'The team quota for pods cannot be lower than the :allocated its workspaces already hold.':
    'Le quota d’équipe en pods ne peut pas être inférieur aux :allocated que ses espaces de travail détiennent déjà.',
  'The team quota for storage cannot be lower than the :allocated its workspaces already hold.':
    'Le quota d’équipe en stockage ne peut pas être inférieur aux :allocated que ses espaces de travail détiennent déjà.',
  'Only the members of this workspace and the managers of its team may ask for more quota.':
    'Seuls les membres de cet espace de travail et les responsables de son équipe peuvent demander plus de quota.',
  'Ask for at least one of cpu, memory, pods and storage.': 'Demandez au moins l’un de cpu, memory, pods et storage.',
  'Only platform admins may raise the team quota.': 'Seuls les administrateurs de la plateforme peuvent augmenter le quota de l’équipe.',
  'The :field field must not be lower than the current :current.': 'Le champ :field ne doit pas être inférieur à la valeur actuelle, :current.',
  'The raise_team_quota field must be true or false.': 'Le champ raise_team_quota doit valoir true ou false.',
};
