import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import { Box, Card, CardContent, Checkbox, FormControlLabel, InputAdornment, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { SubmitButton } from '../../../components/SubmitButton';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { errorMessage, fieldErrors } from '../../../httpClient';
import { FormError } from '../../../pages/auth/FormError';
import type { LifecycleSettingKey, LifecycleSettings, LifecycleSettingsPatch } from './types';

/** The settings in the form's order, each with its unit (docs/lifecycle.md, "Settings"). */
const FIELDS: { key: LifecycleSettingKey; unit: 'days' | 'hours' | 'factor' }[] = [
  { key: 'workspace_lifetime_days', unit: 'days' },
  { key: 'team_review_days', unit: 'days' },
  { key: 'warning_days', unit: 'days' },
  { key: 'last_warning_hours', unit: 'hours' },
  { key: 'retention_days', unit: 'days' },
  { key: 'retention_notice_days', unit: 'days' },
  { key: 'membership_warning_days', unit: 'days' },
  { key: 'policy_validity_days', unit: 'days' },
  { key: 'credit_cpu_factor', unit: 'factor' },
  { key: 'credit_memory_factor', unit: 'factor' },
];

type Draft = Record<LifecycleSettingKey, string>;

const draftOf = (settings: LifecycleSettings): Draft =>
  Object.fromEntries(FIELDS.map(({ key }) => [key, settings[key] === null ? '' : String(settings[key])])) as Draft;

/**
 * /admin/settings: the lifecycle settings (GET/PATCH /api/admin/settings): how long workspaces
 * and teams last, when people are warned, how long expired workspaces are kept ("never" allowed)
 * and how long an acceptance of the policy holds. Each field says the environment's default; the
 * server's 422 messages show under their fields.
 */
export const AdminSettingsPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [settings, setSettings] = useState<LifecycleSettings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [neverDelete, setNeverDelete] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const show = useCallback((loaded: LifecycleSettings) => {
    setSettings(loaded);
    setDraft(draftOf(loaded));
    setNeverDelete(loaded.retention_days === null);
  }, []);
  useEffect(() => {
    dataProvider.getLifecycleSettings().then(show, (failure: unknown) => setError(errorMessage(failure)));
  }, [dataProvider, show]);

  const save = async () => {
    if (!draft) return;
    // Empty fields are refused here: the server would only say the value is not a number.
    const missing = FIELDS.filter(({ key }) => draft[key].trim() === '' && !(key === 'retention_days' && neverDelete));
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map(({ key }) => [key, translate('lifecycle_admin.settings.required')])));
      return;
    }
    const patch = Object.fromEntries(
      FIELDS.map(({ key }) => [key, key === 'retention_days' && neverDelete ? null : Number(draft[key].trim())]),
    ) as LifecycleSettingsPatch;
    setSaving(true);
    setErrors({});
    setError(null);
    try {
      show(await dataProvider.updateLifecycleSettings(patch));
      notify('lifecycle_admin.settings.saved', { type: 'success' });
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields ?? {});
      setError(fields ? null : errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  const defaultText = (key: LifecycleSettingKey) => {
    const value = settings?.defaults[key];
    if (value === undefined) return '';
    return value === null ? translate('lifecycle_admin.settings.default_never') : translate('lifecycle_admin.settings.default', { value });
  };

  return (
    <Box sx={{ py: 2, maxWidth: 720 }}>
      <Title title={translate('lifecycle_admin.settings.title')} />
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <TuneOutlinedIcon color="primary" aria-hidden />
        <Typography variant="h5" component="h1">
          {translate('lifecycle_admin.settings.title')}
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('lifecycle_admin.settings.intro')} <Link to="/admin/lifecycle">{translate('lifecycle_admin.settings.preview_link')}</Link>
      </Typography>
      <Card>
        <CardContent>
          {!draft ? (
            error ? <FormError message={error} /> : <LinearProgress aria-label={translate('app.loading')} />
          ) : (
            <Stack
              component="form"
              spacing={2}
              noValidate
              aria-label={translate('lifecycle_admin.settings.title')}
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              {FIELDS.map(({ key, unit }) => {
                const never = key === 'retention_days' && neverDelete;
                const message = errors[key];
                return (
                  <Box key={key}>
                    <TextField
                      fullWidth
                      type="number"
                      name={key}
                      label={translate(`lifecycle_admin.settings.fields.${key}`)}
                      value={never ? '' : draft[key]}
                      disabled={never}
                      onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
                      error={Boolean(message)}
                      helperText={message ? String(message) : `${translate(`lifecycle_admin.settings.help.${key}`)} ${defaultText(key)}`}
                      slotProps={{
                        htmlInput: unit === 'factor' ? { min: 0, max: 10, step: 0.1 } : { min: 1, step: 1 },
                        input: { endAdornment: <InputAdornment position="end">{translate(`lifecycle_admin.settings.units.${unit}`)}</InputAdornment> },
                      }}
                    />
                    {key === 'retention_days' && (
                      <FormControlLabel
                        control={<Checkbox checked={neverDelete} onChange={(event) => setNeverDelete(event.target.checked)} />}
                        label={translate('lifecycle_admin.settings.never')}
                      />
                    )}
                  </Box>
                );
              })}
              <FormError message={error} />
              <Box>
                <SubmitButton label="lifecycle_admin.settings.save" loading={saving} />
              </Box>
            </Stack>
          )}
        </CardContent>
      </Card>
    </Box>
  );
};
