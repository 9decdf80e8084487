import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import { Alert, Box, Checkbox, FormControlLabel, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../hooks';
import { errorMessage } from '../../httpClient';
import { FormError } from '../auth/FormError';
import type { PolicyInForce, User } from '../../types';
import { AcceptableUsePolicy, PolicyBody } from './AcceptableUsePolicy';

/**
 * The policy in force in the user's language: a published version's text, or the text built
 * into the console while none is published (version "initial", or the policy not loaded).
 */
const PolicyInForceText = ({ policy }: { policy: PolicyInForce | null }) => {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  if (!policy?.text) return <AcceptableUsePolicy />;
  return (
    <Box component="article">
      <Typography variant="h6" component="h3" gutterBottom>
        {translate('onboarding.aup.title')}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 2 }}>
        {translate('onboarding.terms.version', { version: policy.version, date: policy.published_at?.slice(0, 10) ?? '' })}
      </Typography>
      <PolicyBody text={locale === 'fr' ? policy.text.fr : policy.text.en} />
    </Box>
  );
};

/**
 * Step 2 'Terms of service': the policy in force in a scroll area of half the window height.
 * Someone sent back here (a new version, or their acceptance grew too old) is told why, with
 * the new version's "what changed" line.
 */
export const TermsStep = ({ user }: { user?: User }) => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const [policy, setPolicy] = useState<PolicyInForce | null>(null);
  useEffect(() => {
    let current = true;
    // Without it (the server unreachable), the built-in text shows; accepting still works.
    auth.currentPolicy().then((loaded) => current && setPolicy(loaded), () => undefined);
    return () => {
      current = false;
    };
  }, [auth]);
  const renewal = user?.aup_renewal ?? null;
  const [agreed, setAgreed] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!agreed) return;
    setSubmitting(true);
    setError(null);
    try {
      await auth.acceptPolicy(); // the session updates and the console shows
    } catch (failure) {
      setError(errorMessage(failure));
      setSubmitting(false);
    }
  };

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <GavelOutlinedIcon color="primary" aria-hidden />
        <Typography variant="h6" component="h2">
          {translate('onboarding.terms.heading')}
        </Typography>
      </Stack>
      {renewal && (
        <Alert severity="info" data-testid="aup-renewal">
          {translate(renewal.reason === 'new_version' ? 'onboarding.terms.renewal_new_version' : 'onboarding.terms.renewal_expired')}
          {renewal.summary && (
            <Box component="span" sx={{ display: 'block', mt: 1 }}>
              {translate('onboarding.terms.what_changed', { summary: renewal.summary })}
            </Box>
          )}
        </Alert>
      )}
      <Typography>{translate('onboarding.terms.intro')}</Typography>
      <Box
        role="region"
        aria-label={translate('onboarding.terms.region')}
        tabIndex={0}
        data-testid="aup-scroll"
        sx={{
          height: '50vh',
          overflowY: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          p: { xs: 2, sm: 3 },
          bgcolor: 'background.default',
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
        }}
      >
        <PolicyInForceText policy={policy} />
      </Box>
      <FormControlLabel
        control={<Checkbox checked={agreed} onChange={(event) => setAgreed(event.target.checked)} />}
        label={translate('onboarding.terms.agree')}
      />
      <FormError message={error} />
      <Box>
        <SubmitButton label="onboarding.terms.submit" loading={submitting} disabled={!agreed} />
      </Box>
    </Stack>
  );
};
