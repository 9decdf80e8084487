import { Box, LinearProgress, Typography } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import { judgePassword, loadPasswordStrength, MIN_PASSWORD_SCORE } from '../utils/passwordStrength';
import type { StrengthResult } from '../utils/zxcvbn';

const LEVELS = ['very_weak', 'weak', 'fair', 'strong', 'very_strong'] as const;
const COLORS = ['error', 'error', 'warning', 'success', 'success'] as const;

/**
 * How strong the password being typed is, as the server will judge it (zxcvbn, loaded on
 * first use): a bar with a label, the bar exposing its value to assistive technology
 * (aria-valuenow, and the level as aria-valuetext), and zxcvbn's advice while it is too weak.
 * Given the password, the person's own words (email and names), which a good password should
 * not be made of, and whether the password was already refused (its advice is then the field's
 * error). The logged-out forms show it through AuthPasswordStrength (pages/auth/AuthForm.tsx).
 */
export const PasswordStrength = ({ password, person = {}, refused = false }: { password: unknown; person?: Record<string, unknown>; refused?: boolean }) => {
  const translate = useTranslate();
  const labelId = useId();
  const [strength, setStrength] = useState<StrengthResult | null>(null);
  const personKey = JSON.stringify(person);

  // zxcvbn starts loading with the form rather than at the first key: on a slow connection the
  // meter would otherwise appear seconds after the typing, moving the button under the pointer.
  useEffect(() => {
    loadPasswordStrength().catch(() => undefined);
  }, []);

  useEffect(() => {
    if (typeof password !== 'string' || password === '') {
      setStrength(null);
      return;
    }
    let current = true;
    // The first call waits for the lazy import; an answer for an older value is dropped.
    judgePassword(password, JSON.parse(personKey))
      .then((result) => current && setStrength(result))
      .catch(() => current && setStrength(null));
    return () => {
      current = false;
    };
  }, [password, personKey]);

  if (!strength || typeof password !== 'string' || password === '') return null;
  const level = translate(`auth.password_strength.${LEVELS[strength.score]}`);
  const label = translate('auth.password_strength.label', { level });
  const value = (strength.score + 1) * 20;
  return (
    <Box sx={{ mt: -0.5, mb: 1.5 }} data-testid="password-strength">
      <LinearProgress
        variant="determinate"
        value={value}
        color={COLORS[strength.score]}
        aria-labelledby={labelId}
        aria-valuetext={level}
        sx={{ height: 6, borderRadius: 3 }}
      />
      <Typography id={labelId} variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {label}
      </Typography>
      {strength.score < MIN_PASSWORD_SCORE && strength.feedback && !refused ? (
        <Typography variant="caption" color="text.secondary" component="p">
          {strength.feedback}
        </Typography>
      ) : null}
    </Box>
  );
};
