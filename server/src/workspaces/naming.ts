/** A workspace name: lowercase letters, digits and dashes, starting and ending with a letter or digit. */
export const WORKSPACE_NAME_PATTERN = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;
export const MAX_WORKSPACE_NAME_LENGTH = 40;
/** Kubernetes namespace names are DNS labels: at most 63 characters. */
export const MAX_NAMESPACE_LENGTH = 63;

/** The cluster namespace of a workspace: `{team name}-{workspace name}`. */
export const namespaceFor = (teamName: string, workspaceName: string) => `${teamName}-${workspaceName}`;

export const namespaceFits = (teamName: string, workspaceName: string) =>
  namespaceFor(teamName, workspaceName).length <= MAX_NAMESPACE_LENGTH;
