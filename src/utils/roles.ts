// Role names (docs/api-contract.md, "Role names"). Our server answers owner, manager, member; a
// server of the Laravel era answers owner, admin, collaborator or user. The console reads
// either and shows ours.

const LARAVEL_ROLES: Readonly<Record<string, string>> = { admin: 'manager', collaborator: 'member', user: 'member' };

/** Our name for a role as a server gave it (null stays null). */
export const ourRole = (role: string | null | undefined): string | null => (role ? (LARAVEL_ROLES[role] ?? role) : null);

/** Owner or manager (a Laravel-era admin): the spec's "team admin". */
export const isManagerRole = (role: string | null | undefined) => {
  const ours = ourRole(role);
  return ours === 'owner' || ours === 'manager';
};
