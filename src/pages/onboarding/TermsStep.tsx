import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import { Box, Checkbox, FormControlLabel, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../hooks';
import { errorMessage } from '../../httpClient';
import { FormError } from '../auth/FormError';
import { AcceptableUsePolicy } from './AcceptableUsePolicy';

/** Step 2 'Terms of service': the policy in a scroll area of half the window height. */
export const TermsStep = () => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
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
        <AcceptableUsePolicy />
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
