import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import { memo } from 'react';
import { Box, Chip, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { AppBar as RaAppBar, LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { LanguageMenu } from '../components/LanguageMenu';
import { useSettings } from '../settings';
import { UserMenu } from './UserMenu';

/**
 * App name, page title, a discreet 'Sandbox cluster' chip in sandbox mode, the language menu, the user menu.
 * Memoised: react-admin renders its layout again each time it registers the resources (twice
 * as the console starts), and the app bar has no props that change then.
 */
export const AppBar = memo(function AppBar() {
  const translate = useTranslate();
  const { appName, sandbox } = useSettings();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    // The toolbar: our language menu (it also saves the choice to the account) in place of
    // react-admin's LocalesMenuButton, which its default toolbar shows for two languages or more.
    <RaAppBar
      userMenu={<UserMenu />}
      toolbar={
        <>
          <LanguageMenu />
          {/* On a phone the page title needs the room; the browser reloads as well. */}
          <LoadingIndicator sx={{ display: { xs: 'none', sm: 'inline-flex' } }} />
        </>
      }
    >
      <Typography variant="h6" component="span" noWrap sx={{ fontWeight: 600, mr: 1.5, display: { xs: 'none', sm: 'block' } }}>
        {appName}
      </Typography>
      <Box
        aria-hidden
        sx={{ display: { xs: 'none', sm: 'block' }, width: '1px', height: 22, bgcolor: 'rgba(255,255,255,0.3)', mr: 1.5 }}
      />
      {/* min-width 0: the title shrinks to an ellipsis instead of being cut by the controls. */}
      <TitlePortal variant="subtitle1" sx={{ minWidth: 0 }} />
      {sandbox && (
        <Tooltip title={translate('app.sandbox_hint')}>
          {phone ? (
            // On a phone the page title needs the room: the mark alone, named for screen readers.
            <ScienceOutlinedIcon role="img" aria-label={translate('app.sandbox')} fontSize="small" sx={{ mx: 0.5, flexShrink: 0 }} />
          ) : (
            <Chip
              icon={<ScienceOutlinedIcon />}
              label={translate('app.sandbox')}
              size="small"
              variant="outlined"
              sx={{ mx: 1, color: 'inherit', borderColor: 'rgba(255,255,255,0.45)', '& .MuiChip-icon': { color: 'inherit' } }}
            />
          )}
        </Tooltip>
      )}
    </RaAppBar>
  );
});
