// The spec's names (section 3) beside ours in the admin lists, for consoles written against the
// Laravel-era API (docs/api-contract.md, "Admin lists"): a team's `sub_namespaces` /
// `subnamespaces`, a user's `tenants` and `sub_namespaces` / `subnamespaces`, a workspace's
// `tenant`, and `pivot.role` beside `role` in every membership. They are the same values as
// ours, added to the page already presented: no query, nothing per row but the copy. The CSV
// exports present the rows without them.

type Membership = { role: string };
type WithPivot<M extends Membership> = M & { pivot: { role: M['role'] } };

const withPivot = <M extends Membership>(membership: M): WithPivot<M> => ({ ...membership, pivot: { role: membership.role } });

export const withTeamAliases = <T extends { workspaces: unknown[] }>(
  team: T,
): T & { sub_namespaces: T['workspaces']; subnamespaces: T['workspaces'] } => ({
  ...team,
  sub_namespaces: team.workspaces,
  subnamespaces: team.workspaces,
});

export const withWorkspaceAliases = <W extends { team: unknown; users: Membership[] }>(
  workspace: W,
): Omit<W, 'users'> & { tenant: W['team']; users: WithPivot<W['users'][number]>[] } => ({
  ...workspace,
  tenant: workspace.team,
  users: workspace.users.map(withPivot),
});

export const withUserAliases = <U extends { teams: Membership[]; workspaces: Membership[] }>(user: U) => {
  const teams: WithPivot<U['teams'][number]>[] = user.teams.map(withPivot);
  const workspaces: WithPivot<U['workspaces'][number]>[] = user.workspaces.map(withPivot);
  return { ...user, teams, tenants: teams, workspaces, sub_namespaces: workspaces, subnamespaces: workspaces };
};
