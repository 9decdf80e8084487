import MarkEmailUnreadOutlinedIcon from '@mui/icons-material/MarkEmailUnreadOutlined';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { SubmitButton } from '../../components/SubmitButton';
import { useTestbedAuth } from '../../hooks';
import { errorMessage } from '../../httpClient';
import type { User } from '../../types';
import { onboardingStep } from '../../authProvider';

type Feedback = { severity: 'success' | 'info' | 'warning' | 'error'; message: string } | null;

/**
 * Step 1 'Verification'. Every account that reaches it was mailed a link when it was created
 * (registration; an institutional sign-in is verified by its provider), so the step says where
 * the link went and offers to resend it; links are signed, not stored, so a resent one leaves
 * the first working.
 */
export const VerificationStep = ({ user }: { user: User }) => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);

  const send = async () => {
    setSending(true);
    setFeedback(null);
    try {
      await auth.sendVerificationEmail();
      setFeedback({ severity: 'success', message: translate('onboarding.verification.resent', { email: user.email }) });
    } catch (failure) {
      const status = (failure as { status?: number })?.status;
      setFeedback({ severity: status === 429 ? 'warning' : 'error', message: errorMessage(failure) });
    } finally {
      setSending(false);
    }
  };

  const check = async () => {
    setChecking(true);
    setFeedback(null);
    const fresh = await auth.refreshUser();
    // When verified the wizard moves on by itself; otherwise say so.
    if (fresh && onboardingStep(fresh) === 0) {
      setFeedback({ severity: 'info', message: 'onboarding.verification.not_yet' });
    }
    setChecking(false);
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <MarkEmailUnreadOutlinedIcon color="primary" aria-hidden />
        <Typography variant="h6" component="h2">
          {translate('onboarding.verification.heading')}
        </Typography>
      </Stack>
      {/* A long address breaks where it must instead of running out of the card on a phone. */}
      <Typography sx={{ overflowWrap: 'anywhere' }}>{translate('onboarding.verification.intro', { email: user.email })}</Typography>
      {feedback && (
        <Alert
          sx={{ overflowWrap: 'anywhere' }}
          severity={feedback.severity}
          role={feedback.severity === 'error' || feedback.severity === 'warning' ? 'alert' : 'status'}
        >
          {translate(feedback.message, { _: feedback.message })}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <SubmitButton type="button" label="onboarding.verification.send" loading={sending} onClick={send} />
        <Button variant="outlined" onClick={check} disabled={checking}>
          {translate('onboarding.verification.continue')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {translate('onboarding.verification.spam')}
      </Typography>
    </Stack>
  );
};
