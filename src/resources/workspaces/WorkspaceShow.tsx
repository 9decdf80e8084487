import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
// react-admin's Link: a router link styled as the theme's links (not the browser's default blue).
import { Link, Loading, Title, useDataProvider, useGetOne, useLocaleState, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useParams } from 'react-router-dom';
import { RoleChip } from '../../components/RoleChip';
import { useCurrentUser, useJoinRequest } from '../../hooks';
import { ResponsiveColumns } from '../../layout/ResponsiveColumns';
import { NotFound } from '../../pages/NotFound';
import { formatLongDate } from '../../utils/dates';
import { RenewalButton } from '../requests/RenewalDialog';
import { QuotaRequestButton } from './QuotaRequest';
import { ExpiryBanner } from './ExpiryBanner';
import { KubeconfigPanel } from './KubeconfigPanel';
import { PodSecurityChip } from './PodSecurityChip';
import { PodsSection } from './PodsSection';
import { QuotaUsage } from './QuotaUsage';
import { WorkspaceUsage } from './WorkspaceUsage';
import type { WorkspaceRecord } from './types';
import { WorkspaceMembers } from './WorkspaceMembers';

/**
 * /workspaces/:id: title (label), description, users with role. Non-members see a notice and
 * 'Join workspace' (PATCH /api/requests/workspaces/ {team_id, name}), then 'Request pending'.
 * Members only (the product rule for cluster access, also for platform admins) get the kubeconfig download and the Pods
 * section. Members of a suspended team are told that the team is suspended, and get neither.
 */
export const WorkspaceShow = () => {
  const { id } = useParams();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const user = useCurrentUser();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { join: requestToJoin, joining, asked } = useJoinRequest({
    joined: 'workspaces.joined',
    sent: 'workspaces.join_sent',
    error: 'workspaces.join_error',
  });
  const { data: workspace, isPending, error } = useGetOne<WorkspaceRecord>('workspaces', { id: id as unknown as number }, { retry: false });

  if (isPending) return <Loading />;
  if (error || !workspace) return <NotFound titleKey="workspaces.not_found_title" messageKey="workspaces.not_found" />;

  const team = workspace.team ?? workspace.tenant ?? null;
  // The user's team suspended by platform admins (GET /user): they are still in it, without any
  // right for now, so the server answers them as a non-member; say why instead of 'Join'.
  const suspendedTeam = team ? (user?.suspended_teams ?? []).find((item) => item.id === team.id) : undefined;
  const member = !suspendedTeam && (workspace.member ?? (user?.workspaces ?? []).some((item) => item.id === workspace.id));
  const pending =
    asked ||
    (workspace.requests ?? []).some(
      (request) => request.user_id === user?.id && request.type === 'JoinWorkspace' && request.status === 'Pending',
    );
  const title = workspace.label || workspace.name;
  // Its managers and its team's (can_manage) may ask to renew it, before or after its end.
  const renewal = workspace.can_manage && !suspendedTeam ? <RenewalButton target={{ kind: 'workspace', id: workspace.id, name: title }} color="inherit" variant="outlined" size="small" /> : null;
  const ends = workspace.ends_at ?? workspace.expires_at ?? null;

  const join = () => {
    if (!team) return;
    void requestToJoin(() => dataProvider.joinWorkspace({ team_id: team.id, name: workspace.name }));
  };

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title={title} />
      <Box>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {/* A flex gap, not margins: wrapped onto a phone's second line, the chips keep to the left edge. */}
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
          {team && (
            <Typography variant="body2" color="text.secondary">
              {translate('app.labelled', { label: translate('workspaces.fields.team') })}{' '}
              <Link to={`/teams/${encodeURIComponent(team.name)}`}>{team.fullname || team.name}</Link>
            </Typography>
          )}
          {workspace.namespace && <Chip size="small" variant="outlined" label={workspace.namespace} sx={{ fontFamily: 'monospace' }} />}
          <RoleChip role={workspace.role} />
          <PodSecurityChip podSecurity={workspace.pod_security} />
          {ends && (
            <Typography variant="body2" color="text.secondary" data-testid="workspace-end">
              {translate(workspace.status === 'expired' ? 'lifecycle.ended_on' : 'lifecycle.ends_on', { date: formatLongDate(ends, locale) })}
            </Typography>
          )}
          {/* Before the warning time, the banner (and its button) is not there: the button is here. */}
          {workspace.status !== 'expiring' && workspace.status !== 'expired' && renewal}
          {(member || workspace.can_manage) && !suspendedTeam && <QuotaRequestButton workspace={{ id: workspace.id, name: title }} />}
        </Stack>
        <Typography sx={{ mt: 1, whiteSpace: 'pre-wrap' }} color={workspace.description ? undefined : 'text.secondary'}>
          {workspace.description || translate('workspaces.no_description')}
        </Typography>
      </Box>

      <ExpiryBanner workspace={workspace} action={renewal} />

      {workspace.allocation_used_up_at && (
        <Alert severity="warning" data-testid="allocation-used-up">
          {translate('usage.allocation.workspace_used_up')}
        </Alert>
      )}

      {suspendedTeam && (
        <Alert severity="warning">
          {translate('workspaces.team_suspended', { team: suspendedTeam.fullname || suspendedTeam.name })}
        </Alert>
      )}

      {!member && !suspendedTeam && (
        <Alert
          severity="info"
          action={
            pending ? (
              <Chip label={translate('requests.pending')} />
            ) : (
              <Button color="inherit" variant="outlined" size="small" onClick={join} disabled={joining || !team}>
                {translate('workspaces.join')}
              </Button>
            )
          }
        >
          {translate('workspaces.not_member')}
        </Alert>
      )}

      <ResponsiveColumns>
        <WorkspaceMembers workspace={workspace} />
        {member && <KubeconfigPanel workspaceId={workspace.id} />}
        <QuotaUsage quota={workspace.quota} />
        {(member || workspace.can_manage) && <WorkspaceUsage workspaceId={workspace.id} />}
      </ResponsiveColumns>
      {member && <PodsSection workspaceId={workspace.id} namespace={workspace.namespace} workspaceName={title} />}
    </Stack>
  );
};
