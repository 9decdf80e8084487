import { Alert, Autocomplete, Box, Card, CardContent, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useDataProvider, useGetList, useGetOne, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useSearchParams } from 'react-router-dom';
import { SubmitButton } from '../../components/SubmitButton';
import { useCurrentUser, useRefreshRequests } from '../../hooks';
import { serverMessage } from '../../httpClient';
import type { TeamRecord } from './types';

/** Waits for the typing to pause before searching the server. */
const SEARCH_DELAY_MS = 250;

/**
 * /team/join: choose a team with an autocomplete that searches the server as one types
 * (GET /api/tenants?q=, the first 20 matches: a testbed has thousands of teams; the ones the
 * user belongs to or has asked to join are marked and cannot be chosen) and ask to join with
 * an optional message (PATCH /api/requests/teams). Failures: the server message or 'Error
 * joining a team'.
 */
export const TeamJoinPage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const [params] = useSearchParams();
  const [teamId, setTeamId] = useState<string>(params.get('team') ?? '');
  const [chosen, setChosen] = useState<TeamRecord | null>(null);
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const [message, setMessage] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [input]);
  const { data: found, isFetching } = useGetList<TeamRecord>(
    'teams/search',
    { filter: { q }, pagination: { page: 1, perPage: 20 }, sort: { field: 'fullname', order: 'ASC' } },
    { enabled: q !== '' },
  );
  // A team named by the link (/team/join?team=3) is fetched alone.
  const { data: linked } = useGetOne<TeamRecord>('teams', { id: Number(params.get('team')) }, { enabled: /^\d+$/.test(params.get('team') ?? '') });
  const selected = chosen ?? (linked && String(linked.id) === teamId ? linked : null);

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
    const team = selected;
    try {
      await dataProvider.joinTeam({ team_id: Number(teamId), ...(message.trim() ? { message: message.trim() } : {}) });
      setSuccess(translate('teams.join_page.success', { name: team ? label(team) : teamId }));
      setTeamId('');
      setChosen(null);
      setInput('');
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
            <Autocomplete<TeamRecord>
              id="join-team-select"
              options={q === '' ? [] : (found ?? [])}
              value={selected}
              // The server filtered already (name, full name, short name, affiliation).
              filterOptions={(options) => options}
              getOptionLabel={label}
              getOptionDisabled={(team) => stateOf(team) !== null}
              isOptionEqualToValue={(option, value) => option.id === value.id}
              renderOption={(props, team) => {
                const state = stateOf(team);
                return (
                  <li {...props} key={team.id}>
                    {state ? translate(`teams.join_page.${state}`, { name: label(team) }) : label(team)}
                  </li>
                );
              }}
              loading={isFetching}
              noOptionsText={translate(q === '' ? 'admin_filters.team_picker.type_more' : 'admin_filters.team_picker.no_options')}
              inputValue={input}
              onInputChange={(_, value) => setInput(value)}
              onChange={(_, team) => {
                setChosen(team);
                setTeamId(team ? String(team.id) : '');
                setMissing(false);
              }}
              renderInput={(inputParams) => (
                <TextField
                  {...inputParams}
                  label={translate('teams.fields.team')}
                  placeholder={translate('admin_filters.team_picker.placeholder')}
                  error={missing}
                  helperText={missing ? translate('ra.validation.required') : translate('teams.join_page.choose')}
                />
              )}
              sx={{ mb: 2 }}
            />
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
        </CardContent>
      </Card>
    </Box>
  );
};
