import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import HubIcon from '@mui/icons-material/Hub';
import { Box, Link, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import illustration from '../../assets/testbed-illustration.svg';
import { LanguageMenu } from '../../components/LanguageMenu';
import { useSettings } from '../../settings';
import { ScreenLink } from './screenRouting';

export interface LoggedOutLayoutProps {
  /** Translation key of the heading. */
  title: string;
  /** Translation key (or node) under the heading. */
  subtitle?: ReactNode;
  children: ReactNode;
  /** Show the 'Back to login' link (every screen but the login page itself). */
  backToLogin?: boolean;
}

/**
 * Shared layout of the logged-out area: the form on a left panel, the platform image on the
 * right (hidden on narrow screens), a link back to login.
 */
export const LoggedOutLayout = ({ title, subtitle, children, backToLogin = true }: LoggedOutLayoutProps) => {
  const translate = useTranslate();
  const { appName } = useSettings();
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box
        component="main"
        sx={{
          flex: { xs: '1 1 auto', md: '0 0 520px' },
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          px: { xs: 2, sm: 6 },
          py: 4,
          bgcolor: 'background.paper',
          boxShadow: { md: '4px 0 24px rgba(15, 42, 51, 0.08)' },
          zIndex: 1,
        }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 5 }}>
          <HubIcon color="primary" sx={{ fontSize: 36 }} aria-hidden />
          <Box>
            <Typography variant="h6" component="p" sx={{ lineHeight: 1.2 }}>
              {appName}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('auth.tagline')}
            </Typography>
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <LanguageMenu color="primary" />
        </Stack>
        <Paper elevation={0} sx={{ width: '100%', maxWidth: 420, mx: { xs: 'auto', md: 0 } }}>
          <Typography variant="h4" component="h1" gutterBottom>
            {translate(title)}
          </Typography>
          {subtitle && (
            <Typography variant="body1" color="text.secondary" sx={{ mb: 3 }}>
              {typeof subtitle === 'string' ? translate(subtitle) : subtitle}
            </Typography>
          )}
          {children}
          {backToLogin && (
            <Box sx={{ mt: 4 }}>
              <Link component={ScreenLink} to="/" variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                <ArrowBackIcon fontSize="small" aria-hidden />
                {translate('auth.back_to_login')}
              </Link>
            </Box>
          )}
        </Paper>
      </Box>
      <Box
        sx={{
          flex: '1 1 auto',
          display: { xs: 'none', md: 'block' },
          position: 'relative',
          overflow: 'hidden',
          bgcolor: '#0b3c49',
        }}
      >
        <Box
          component="img"
          src={illustration}
          alt={translate('auth.illustration_alt')}
          sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
        />
      </Box>
    </Box>
  );
};
