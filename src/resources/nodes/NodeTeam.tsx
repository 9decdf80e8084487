import { Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useCurrentUser } from '../../hooks';
import { errorMessage } from '../../httpClient';
import type { NodeRecord } from './types';

// Contributor credit (docs/api-contract.md, "Team quotas"): the node's owner chooses which of
// their teams the node counts for (PATCH /api/nodes/{id} {team_id}); while it is Ready, that
// team's CPU and memory caps grow with its capacity. Only the owner sees the choice.

export const NodeTeam = ({ node }: { node: NodeRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const user = useCurrentUser();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [saving, setSaving] = useState(false);
  if (!user || node.owner?.id !== user.id) return null;
  const teams = user.teams ?? [];
  const value = node.team_id == null ? '' : String(node.team_id);

  const choose = async (chosen: string) => {
    setSaving(true);
    try {
      await dataProvider.setNodeTeam(node.id, chosen === '' ? null : Number(chosen));
      notify('teamQuota.node.saved', { type: 'success' });
      refresh();
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="node-team-title">
      <CardContent>
        <Typography id="node-team-title" variant="h6" component="h2" gutterBottom>
          {translate('teamQuota.node.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('teamQuota.node.intro')}
        </Typography>
        <TextField
          select
          size="small"
          label={translate('teamQuota.node.team')}
          value={value}
          disabled={saving}
          onChange={(event) => void choose(event.target.value)}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value="">{translate('teamQuota.node.none')}</MenuItem>
          {teams.map((team) => (
            <MenuItem key={team.id} value={String(team.id)}>
              {team.fullname || team.name}
            </MenuItem>
          ))}
        </TextField>
      </CardContent>
    </Card>
  );
};
