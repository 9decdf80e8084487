import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { SubmitButton } from '../../../components/SubmitButton';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { errorMessage, fieldErrors } from '../../../httpClient';
import { FormError } from '../../../pages/auth/FormError';
import type { PolicyInForce, PolicyVersion } from '../../../types';

const EMPTY = { en: '', fr: '', summary: '' };

/**
 * /admin/policy: platform admins publish a new version of the acceptable use policy (its text in
 * English and French, and what changed), after a confirmation, since everybody must then accept
 * it again; below, the versions published so far.
 */
export const AdminPolicyPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [inForce, setInForce] = useState<PolicyInForce | null>(null);
  const [versions, setVersions] = useState<PolicyVersion[]>([]);
  const [draft, setDraft] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [publishing, setPublishing] = useState(false);

  const load = useCallback(async () => {
    const [current, list] = await Promise.all([dataProvider.getPolicyInForce(), dataProvider.getPolicyVersions()]);
    setInForce(current);
    setVersions(list);
  }, [dataProvider]);
  useEffect(() => {
    load().catch((failure: unknown) => setError(errorMessage(failure)));
  }, [load]);

  const publish = async () => {
    setConfirming(false);
    setPublishing(true);
    setError(null);
    setErrors({});
    try {
      const version = await dataProvider.publishPolicyVersion({ text: { en: draft.en, fr: draft.fr }, summary: draft.summary });
      notify('policy_admin.published', { type: 'success', messageArgs: { id: version.id } });
      setDraft(EMPTY);
      await load();
    } catch (failure) {
      setErrors(fieldErrors(failure) ?? {});
      setError(errorMessage(failure));
    } finally {
      setPublishing(false);
    }
  };

  const field = (name: 'en' | 'fr' | 'summary', errorKey: string, label: string, rows: number, help: string) => (
    <TextField
      label={translate(label)}
      value={draft[name]}
      onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
      multiline
      minRows={rows}
      maxRows={name === 'summary' ? 4 : 20}
      required
      fullWidth
      error={Boolean(errors[errorKey])}
      helperText={errors[errorKey] ?? translate(help)}
    />
  );

  return (
    <Box sx={{ py: 2, maxWidth: 960 }}>
      <Title title={translate('policy_admin.title')} />
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <GavelOutlinedIcon color="primary" aria-hidden />
        <Typography variant="h5" component="h1">
          {translate('policy_admin.title')}
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {translate('policy_admin.intro')}
      </Typography>
      {inForce && (
        <Typography sx={{ mb: 2 }} data-testid="policy-in-force">
          {inForce.id === null ? translate('policy_admin.initial') : translate('policy_admin.current', { version: inForce.version })}
        </Typography>
      )}
      <Card sx={{ mb: 3 }}>
        <CardContent>
          <Stack
            component="form"
            spacing={2}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setConfirming(true);
            }}
          >
            {field('en', 'text.en', 'policy_admin.text_en', 8, 'policy_admin.text_help')}
            {field('fr', 'text.fr', 'policy_admin.text_fr', 8, 'policy_admin.text_help')}
            {field('summary', 'summary', 'policy_admin.summary', 2, 'policy_admin.summary_help')}
            <FormError message={error} />
            <Box>
              <SubmitButton label="policy_admin.publish" loading={publishing} disabled={!draft.en.trim() || !draft.fr.trim() || !draft.summary.trim()} />
            </Box>
          </Stack>
        </CardContent>
      </Card>
      <ConfirmDialog
        isOpen={confirming}
        title="policy_admin.confirm_title"
        content="policy_admin.confirm_content"
        confirm="policy_admin.publish"
        onConfirm={() => void publish()}
        onClose={() => setConfirming(false)}
      />
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('policy_admin.versions')}
      </Typography>
      {versions.length === 0 ? (
        <Typography color="text.secondary">{translate('policy_admin.none')}</Typography>
      ) : (
        <Stack spacing={1.5} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {versions.map((version) => (
            <Card component="li" key={version.id} variant="outlined">
              <CardContent>
                <Typography variant="subtitle1" component="h3">
                  {`${version.id} · ${version.published_at.slice(0, 10)}`}
                  {version.published_by && ` · ${translate('policy_admin.by', { name: version.published_by.name })}`}
                </Typography>
                <Typography variant="body2" sx={{ mb: 1 }}>
                  {version.summary}
                </Typography>
                <Button size="small" onClick={() => setDraft({ en: version.text.en, fr: version.text.fr, summary: '' })}>
                  {translate('policy_admin.copy')}
                </Button>
              </CardContent>
            </Card>
          ))}
        </Stack>
      )}
    </Box>
  );
};
