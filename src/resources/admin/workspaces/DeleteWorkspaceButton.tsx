import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../../httpClient';
import { type AdminWorkspaceDetail, isDetail } from './types';

/**
 * Delete (DELETE /api/admin/workspaces/{id}), after a confirmation that names what goes:
 * "Deleting workspace X deletes namespace ns-x, its pods, and the access of 4 members."
 */
export const DeleteWorkspaceButton = () => {
  const record = useRecordContext<AdminWorkspaceDetail>();
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [working, setWorking] = useState(false);
  if (!isDetail(record)) return null;

  const confirm = async () => {
    setWorking(true);
    try {
      await dataProvider.delete('admin/workspaces', { id: record.id, previousData: record });
      notify('adminWorkspaces.delete.done', { type: 'success', messageArgs: { name: record.label } });
      navigate('/admin/workspaces');
    } catch (error) {
      const message = errorMessage(error);
      notify(message, { type: 'error', messageArgs: { _: message } });
    } finally {
      setWorking(false);
      setOpen(false);
    }
  };

  return (
    <>
      <Button color="error" startIcon={<DeleteOutlineIcon />} onClick={() => setOpen(true)} disabled={working}>
        {translate('adminWorkspaces.delete.action')}
      </Button>
      <ConfirmDialog
        isOpen={open}
        loading={working}
        title="adminWorkspaces.delete.title"
        content="adminWorkspaces.delete.content"
        translateOptions={{
          name: record.label,
          namespace: record.namespace,
          members: translate('adminWorkspaces.counts.members', { smart_count: record.counts.members }),
        }}
        confirm="adminWorkspaces.delete.action"
        destructive
        // A deleted namespace and its pods do not come back: the name is typed back first.
        typeToConfirm={record.name}
        onConfirm={() => void confirm()}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
