import HubIcon from '@mui/icons-material/Hub';
import LogoutIcon from '@mui/icons-material/Logout';
import { Box, Button, Card, CardContent, Container, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { useEffect } from 'react';
import { Notification, useLogout, useTranslate } from 'react-admin';
import { fullName, onboardingStep } from '../../authProvider';
import { useTestbedAuth } from '../../hooks';
import { useSettings } from '../../settings';
import type { User } from '../../types';
import { TermsStep } from './TermsStep';
import { VerificationStep } from './VerificationStep';
import { LanguageMenu } from '../../components/LanguageMenu';

const steps = ['onboarding.steps.verification', 'onboarding.steps.terms'];

/**
 * For logged-in users not fully set up: step 0 verify the email, step 1 accept
 * the policy. The session store re-renders the gate once both are done.
 */
export const OnboardingWizard = ({ user }: { user: User }) => {
  const translate = useTranslate();
  const auth = useTestbedAuth();
  const logout = useLogout();
  const { appName } = useSettings();
  const step = onboardingStep(user);

  // The link is usually opened in another tab: check again when the user comes back here.
  useEffect(() => {
    if (step !== 0) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') void auth.refreshUser();
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [auth, step]);

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="header"
        sx={{ bgcolor: '#0f2a33', color: '#fff', px: { xs: 2, sm: 4 }, py: 1.5, display: 'flex', alignItems: 'center', gap: 1.5 }}
      >
        <HubIcon aria-hidden />
        <Typography variant="h6" component="p" sx={{ flexGrow: 1, minWidth: 0 }}>
          {appName}
        </Typography>
        <LanguageMenu />
        {/* On a phone the name wraps, not the button: squeezed, its label ran out of it. */}
        <Button color="inherit" startIcon={<LogoutIcon />} onClick={() => logout({ redirectTo: '/' })} sx={{ flexShrink: 0 }}>
          {translate('app.action.logout')}
        </Button>
      </Box>
      <Container component="main" maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
        <Typography variant="h4" component="h1" gutterBottom>
          {translate('onboarding.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {translate('onboarding.welcome', { name: fullName(user), smart_count: steps.length - step })}
        </Typography>
        <Card>
          <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
            <Stepper activeStep={step} sx={{ mb: 4 }} aria-label={translate('onboarding.title')}>
              {steps.map((label) => (
                <Step key={label}>
                  <StepLabel>{translate(label)}</StepLabel>
                </Step>
              ))}
            </Stepper>
            <Stack>{step === 0 ? <VerificationStep user={user} /> : <TermsStep user={user} />}</Stack>
          </CardContent>
        </Card>
      </Container>
      <Notification />
    </Box>
  );
};
