import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BooleanInput, Form, FormDataConsumer, SelectInput, TextInput, Title, useDataProvider, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { CopyButton } from '../../components/CopyButton';
import { SubmitButton } from '../../components/SubmitButton';
import { errorMessage, fieldErrors } from '../../httpClient';
import { useSettings } from '../../settings';
import { CommandLine } from '../workspaces/KubeconfigPanel';
import { InstallAddressNotice } from './InstallAddressNotice';
import { installCommand } from './InstallationPanel';
import { NODE_TYPES, type NodeRecord } from './types';

const typeChoices = NODE_TYPES.map((id) => ({ id, name: `nodes.types.${id}` }));

const trimmed = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The new node payload (docs/nodes-contract.md): type, dhcp, hostname, ipv4, notes, code; empty optional fields are left out. */
export const newNodePayload = (values: FieldValues): Record<string, unknown> => {
  const dhcp = values.dhcp !== false;
  const payload: Record<string, unknown> = { type: values.type ?? null, dhcp };
  const ipv4 = trimmed(values.ipv4);
  if (!dhcp && ipv4) payload.ipv4 = ipv4;
  const hostname = trimmed(values.hostname);
  if (hostname) payload.hostname = hostname;
  const notes = trimmed(values.notes);
  if (notes) payload.notes = notes;
  const code = trimmed(values.code).toUpperCase();
  if (code) payload.code = code;
  return payload;
};

/**
 * Machine first: how to get the authentication code, with the generic installer (its public
 * script and USB image, from the runtime settings). Collapsed: most people add the node first.
 */
const MachineFirstHelp = () => {
  const translate = useTranslate();
  const { nodeInstall } = useSettings();
  if (!nodeInstall) return null;
  const command = installCommand(nodeInstall.scriptUrl);
  return (
    <Accordion variant="outlined" disableGutters sx={{ mb: 2, '&::before': { display: 'none' } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="machine-first-help" id="machine-first-summary">
        <Typography variant="body2">{translate('nodes.create.machine_first')}</Typography>
      </AccordionSummary>
      <AccordionDetails id="machine-first-help">
        <Typography variant="body2" color="text.secondary">
          {translate('nodes.create.machine_first_terminal')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <Box sx={{ flexGrow: 1, minWidth: 0 }} data-testid="generic-install-command">
            <CommandLine command={command} />
          </Box>
          <CopyButton text={command} size="small" sx={{ mt: { sm: 1 }, flexShrink: 0 }} />
        </Stack>
        <InstallAddressNotice url={nodeInstall.scriptUrl} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          {translate('nodes.create.machine_first_usb')}{' '}
          <Link href={nodeInstall.imageUrl} download>
            {translate('nodes.create.machine_first_download')}
          </Link>
        </Typography>
      </AccordionDetails>
    </Accordion>
  );
};

const defaultValues = { code: '', type: null, dhcp: true, ipv4: '', hostname: '', notes: '' };

/**
 * /nodes/create: the authentication code of a machine that already runs the generic installer
 * (optional), the node's type, DHCP or a static IPv4 address, hostname and notes. No client-side
 * rules: the server's 422 shows under the fields and its message in the 'Registration
 * error' alert. While the request runs, an overlay covers the form and the submit is disabled;
 * on success the form resets and the user goes to /nodes/{id}.
 */
export const NodeCreate = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // A new key remounts the form with its default values (the spec's "the form resets").
  const [formKey, setFormKey] = useState(0);

  const onSubmit = async (values: FieldValues) => {
    setSubmitting(true);
    setFailure(null);
    try {
      const { data } = await dataProvider.create<NodeRecord>('nodes', { data: newNodePayload(values) });
      setSubmitting(false);
      setFormKey((key) => key + 1);
      void queryClient.invalidateQueries({ queryKey: ['nodes'] });
      navigate(`/nodes/${data.id}`);
      return undefined;
    } catch (error) {
      setSubmitting(false);
      const message = errorMessage(error);
      setFailure(translate(message, { _: message }));
      return fieldErrors(error);
    }
  };

  return (
    <>
      <Title title="nodes.create.title" />
      <Card sx={{ mt: 2, maxWidth: 720, position: 'relative' }} aria-busy={submitting || undefined}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('nodes.create.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('nodes.create.intro')}
          </Typography>
          <MachineFirstHelp />
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              <AlertTitle>{translate('nodes.create.error_title')}</AlertTitle>
              {failure}
            </Alert>
          )}
          <Form key={formKey} onSubmit={onSubmit} noValidate disableInvalidFormNotification resource="nodes" defaultValues={defaultValues}>
            <TextInput
              source="code"
              placeholder="ABCXYZ"
              autoComplete="off"
              helperText="nodes.create.code_hint"
              slotProps={{ htmlInput: { maxLength: 6, style: { textTransform: 'uppercase', letterSpacing: '0.2em' } } }}
            />
            <SelectInput source="type" choices={typeChoices} emptyText="nodes.create.choose_type" />
            <BooleanInput source="dhcp" helperText="nodes.create.dhcp_hint" />
            <FormDataConsumer>
              {({ formData }) =>
                formData.dhcp === false ? (
                  <TextInput source="ipv4" placeholder="192.168.1.50" autoComplete="off" helperText="nodes.create.ipv4_hint" />
                ) : null
              }
            </FormDataConsumer>
            <TextInput source="hostname" autoComplete="off" helperText="nodes.create.hostname_hint" />
            <TextInput source="notes" multiline minRows={3} helperText="nodes.create.notes_hint" />
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
              <Button onClick={() => navigate('/nodes')} disabled={submitting}>
                {translate('ra.action.cancel')}
              </Button>
              <Box>
                <SubmitButton label="nodes.create.submit" loading={submitting} />
              </Box>
            </Stack>
          </Form>
        </CardContent>
        {submitting && (
          // The loading overlay (MUI's Backdrop would hide its text from assistive technologies).
          <Box
            data-testid="node-create-overlay"
            sx={{
              position: 'absolute',
              inset: 0,
              zIndex: 1,
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1,
              bgcolor: 'rgba(255, 255, 255, 0.7)',
            }}
          >
            <CircularProgress aria-hidden />
            <Typography role="status">{translate('nodes.create.submitting')}</Typography>
          </Box>
        )}
      </Card>
    </>
  );
};
