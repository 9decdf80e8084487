import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useEffect, useState } from 'react';
import { AdminTeamQuotaDialog } from './AdminTeamQuota';
import { Form, TextInput, TopToolbar, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate } from 'react-admin';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useNavigate } from 'react-router-dom';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { errorMessage, fieldErrors } from '../../../httpClient';
import { type AdminTeamDetail, isDetail, type TeamDeletion } from './types';
import { useCountInWords } from '../bulk';

// The platform admin's actions on /admin/teams/{id}. Each says what it will do before it does
// it: suspension names the members and workspaces it reaches, deletion shows the dry run's list.

const EditDialog = ({ team, onClose }: { team: AdminTeamDetail; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const submit = async (values: Record<string, unknown>) => {
    const data = { fullname: values.fullname, url: values.url ?? '', country: values.country ?? '', affiliation: values.affiliation ?? '' };
    try {
      await update('admin/teams', { id: team.id, data, previousData: team }, { returnPromise: true });
      notify('teamAdmin.saved', { type: 'success' });
      refresh();
      onClose();
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors) return errors;
      notify(errorMessage(error), { type: 'error' });
    }
    return undefined;
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="team-edit-title">
      <Form record={team} onSubmit={submit}>
        <DialogTitle id="team-edit-title">{translate('teamAdmin.edit_title', { name: team.fullname })}</DialogTitle>
        <DialogContent>
          <TextInput source="fullname" label="teams.fields.fullname" fullWidth />
          <TextInput source="url" label="teams.fields.url" fullWidth />
          <TextInput source="country" label="teams.fields.country" fullWidth />
          <TextInput source="affiliation" label="teams.fields.affiliation" fullWidth />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isPending}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  );
};

const DeleteDialog = ({ team, onClose }: { team: AdminTeamDetail; onClose: () => void }) => {
  const translate = useTranslate();
  const amount = useCountInWords();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [plan, setPlan] = useState<TeamDeletion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The dry run first: the confirmation lists what will go.
  useEffect(() => {
    let live = true;
    dataProvider.deleteTeamCascade(team.id, { dryRun: true }).then(
      (answer) => live && setPlan(answer),
      (caught: unknown) => live && setError(errorMessage(caught)),
    );
    return () => {
      live = false;
    };
  }, [dataProvider, team.id]);

  const confirm = async () => {
    setBusy(true);
    try {
      await dataProvider.deleteTeamCascade(team.id, { dryRun: false });
      notify('teamAdmin.deleted', { type: 'success', messageArgs: { name: team.fullname } });
      navigate('/admin/teams');
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };

  const content = !plan
    ? translate('teamAdmin.delete_loading')
    : plan.workspaces.length === 0
      ? translate('teamAdmin.delete_content_empty', { name: team.fullname, members: amount('teamAdmin.amounts.team_memberships', plan.counts.team_members) })
      : translate('teamAdmin.delete_content', {
          name: team.fullname,
          workspaces: amount('teamAdmin.amounts.workspaces_with_namespaces', plan.counts.workspaces),
          names: plan.workspaces.map((workspace) => workspace.name).join(', '),
          members: amount('teamAdmin.amounts.team_memberships', plan.counts.team_members),
          workspace_members: amount('teamAdmin.amounts.workspace_memberships', plan.counts.workspace_members),
        });
  // Deleting a team cannot be undone: its short name is typed back before the button works.
  return (
    <ConfirmDialog
      isOpen
      title={translate('teamAdmin.delete_title', { name: team.fullname })}
      content={
        <Stack spacing={1}>
          {error ? <Alert severity="error">{translate(error, { _: error })}</Alert> : <Alert severity="warning">{content}</Alert>}
        </Stack>
      }
      confirm="teamAdmin.delete"
      destructive
      typeToConfirm={team.name}
      loading={busy}
      disabled={!plan}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
};

export const AdminTeamActions = () => {
  const team = useRecordContext<AdminTeamDetail>();
  const translate = useTranslate();
  const amount = useCountInWords();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  const [dialog, setDialog] = useState<'edit' | 'quota' | 'suspend' | 'delete' | null>(null);
  if (!isDetail(team)) return <TopToolbar />;

  const toggle = async () => {
    try {
      await update('admin/teams', { id: team.id, data: { enabled: !team.enabled }, previousData: team }, { returnPromise: true });
      notify(team.enabled ? 'teamAdmin.suspended_done' : 'teamAdmin.enabled_done', { type: 'success' });
      refresh();
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    }
    setDialog(null);
  };

  return (
    // Four actions do not fit a phone's width in French: they wrap instead of running into each other.
    <TopToolbar sx={{ flexWrap: 'wrap', gap: 1 }}>
      <Button onClick={() => setDialog('edit')}>{translate('teamAdmin.edit')}</Button>
      <Button onClick={() => setDialog('quota')}>{translate('teamQuota.admin.button')}</Button>
      <Button color={team.enabled ? 'warning' : 'success'} onClick={() => setDialog('suspend')}>
        {translate(team.enabled ? 'teamAdmin.suspend' : 'teamAdmin.enable')}
      </Button>
      <Button color="error" onClick={() => setDialog('delete')}>
        {translate('teamAdmin.delete')}
      </Button>
      {dialog === 'edit' && <EditDialog team={team} onClose={() => setDialog(null)} />}
      {dialog === 'quota' && <AdminTeamQuotaDialog team={team} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteDialog team={team} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        isOpen={dialog === 'suspend'}
        loading={isPending}
        title={translate(team.enabled ? 'teamAdmin.suspend_title' : 'teamAdmin.enable_title', { name: team.fullname })}
        content={translate(team.enabled ? 'teamAdmin.suspend_content' : 'teamAdmin.enable_content', {
          name: team.fullname,
          // The same counts as the bulk suspension's confirmation.
          members: amount('adminBulk.teams.members', team.counts.members),
          workspaces: amount('adminBulk.teams.workspaces', team.counts.workspaces),
        })}
        destructive={team.enabled}
        confirm={team.enabled ? 'teamAdmin.suspend' : 'teamAdmin.enable'}
        onConfirm={() => void toggle()}
        onClose={() => setDialog(null)}
      />
    </TopToolbar>
  );
};
