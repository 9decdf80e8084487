import { Alert, Box, Card, CardContent, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Loading, Title, useGetList, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { SubmitButton } from '../../components/SubmitButton';
import { useCurrentUser, useRefreshRequests, useTestbedDataProvider } from '../../hooks';
import { serverMessage } from '../../httpClient';
import type { TeamRecord } from '../../resources/teams/TeamShow';

/**
 * /team/join: choose a team (GET /api/tenants; the ones the user belongs to or has asked to
 * join are marked and cannot be chosen) and ask to join with an optional message (PATCH
 * /api/requests/teams). Failures: the server message or 'Error joining a team'.
 */
export const TeamJoinPage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const dataProvider = useTestbedDataProvider();
  const refreshRequests = useRefreshRequests();
  const [params] = useSearchParams();
  const [teamId, setTeamId] = useState<string>(params.get('team') ?? '');
  const [message, setMessage] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const { data: teams, isPending } = useGetList<TeamRecord>('tenants', {
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'fullname', order: 'ASC' },
  });

  const memberOf = new Set((user?.teams ?? []).map((team) => team.id));
  const pendingFor = new Set(
    (user?.requests ?? [])
      .filter((request) => request.type === 'JoinTeam' && request.status === 'Pending' && request.object?.id != null)
      .map((request) => request.object!.id),
  );
  const stateOf = (team: TeamRecord): 'member' | 'pending' | null => {
    if (memberOf.has(team.id) || team.member) return 'member';
    if (pendingFor.has(team.id) || team.pending_request?.status === 'Pending') return 'pending';
    return null;
  };
  const label = (team: TeamRecord) => (team.shortname ? `${team.fullname || team.name} (${team.shortname})` : team.fullname || team.name);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!teamId) {
      setMissing(true);
      return;
    }
    setSubmitting(true);
    const team = (teams ?? []).find((item) => String(item.id) === teamId);
    try {
      await dataProvider.joinTeam({ team_id: Number(teamId), ...(message.trim() ? { message: message.trim() } : {}) });
      setSuccess(translate('teams.join_page.success', { name: team ? label(team) : teamId }));
      setTeamId('');
      setMessage('');
      void refreshRequests();
    } catch (error) {
      const text = serverMessage(error, 'teams.join_page.error');
      setFailure(translate(text, { _: text }));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Box sx={{ py: 2, maxWidth: 720 }}>
      <Title title="teams.join_page.title" />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate('teams.join_page.title')}
      </Typography>
      <Card>
        <CardContent>
          {isPending ? (
            <Loading />
          ) : (teams ?? []).length === 0 ? (
            <Typography>{translate('teams.join_page.none')}</Typography>
          ) : (
            <Box component="form" onSubmit={onSubmit} noValidate>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                {translate('teams.join_page.intro')}
              </Typography>
              {success && (
                <Alert severity="success" role="status" sx={{ mb: 2 }}>
                  {success}
                </Alert>
              )}
              {failure && (
                <Alert severity="error" sx={{ mb: 2 }}>
                  {failure}
                </Alert>
              )}
              <TextField
                select
                fullWidth
                id="join-team-select"
                label={translate('teams.fields.team')}
                value={teamId}
                onChange={(event) => {
                  setTeamId(event.target.value);
                  setMissing(false);
                }}
                error={missing}
                helperText={missing ? translate('ra.validation.required') : translate('teams.join_page.choose')}
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
                sx={{ mb: 2 }}
              >
                <option value="">{''}</option>
                {(teams ?? []).map((team) => {
                  const state = stateOf(team);
                  const text = state ? translate(`teams.join_page.${state}`, { name: label(team) }) : label(team);
                  return (
                    <option key={team.id} value={String(team.id)} disabled={!!state}>
                      {text}
                    </option>
                  );
                })}
              </TextField>
              <TextField
                fullWidth
                multiline
                minRows={3}
                label={translate('teams.fields.message')}
                helperText={translate('teams.join_page.message_hint')}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                sx={{ mb: 2 }}
              />
              <SubmitButton label="teams.join_page.submit" loading={submitting} />
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
