import CheckIcon from '@mui/icons-material/Check';
import TranslateIcon from '@mui/icons-material/Translate';
import { Box, Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useLocaleChoice } from '../i18n/LocaleChoice';
import { LOCALES, LOCALE_NAMES } from '../i18n/locale';

/**
 * The language menu (English / Français), in the app bar and on the logged-out pages. Each
 * language is named in its own language. Shows nothing outside a LocaleChoiceContext.
 */
export const LanguageMenu = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const choice = useLocaleChoice();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (!choice) return null;
  const label = translate('app.language');
  return (
    <>
      <Button
        color={color}
        startIcon={<TranslateIcon aria-hidden />}
        aria-label={`${label}: ${LOCALE_NAMES[choice.locale]}`}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ textTransform: 'none', minWidth: 0, flexShrink: 0 }}
      >
        {/* The name on wide screens, the code on phones. */}
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {LOCALE_NAMES[choice.locale]}
        </Box>
        <Box component="span" sx={{ display: { xs: 'inline', sm: 'none' } }}>
          {choice.locale.toUpperCase()}
        </Box>
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {LOCALES.map((locale) => (
          <MenuItem
            key={locale}
            lang={locale}
            selected={locale === choice.locale}
            onClick={() => {
              setAnchor(null);
              if (locale !== choice.locale) choice.setLocale(locale);
            }}
          >
            <ListItemIcon>{locale === choice.locale && <CheckIcon fontSize="small" />}</ListItemIcon>
            <ListItemText>{LOCALE_NAMES[locale]}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
