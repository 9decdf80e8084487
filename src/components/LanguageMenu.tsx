import TranslateIcon from '@mui/icons-material/Translate';
import { Box, Button } from '@mui/material';
import { Suspense, useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useLocaleChoice } from '../i18n/LocaleChoice';
import { LOCALE_NAMES } from '../i18n/locale';
import { lazyNamed } from '../utils/lazyNamed';

// The popup (MUI's Menu, Popover and Modal: 8 kB gzip) loads when the button is first pointed
// at, focused or pressed, not with the login page.
const LanguageMenuList = lazyNamed(() => import('./LanguageMenuList'), 'LanguageMenuList');
const preload = () => void LanguageMenuList.preload();

/**
 * The language menu (English / Français), in the app bar and on the logged-out pages. Each
 * language is named in its own language. Shows nothing outside a LocaleChoiceContext.
 */
export const LanguageMenu = ({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) => {
  const choice = useLocaleChoice();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Mounted from the first opening on, so that closing keeps its transition.
  const [used, setUsed] = useState(false);
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
        onPointerEnter={preload}
        onFocus={preload}
        onClick={(event) => {
          setUsed(true);
          setAnchor(event.currentTarget);
        }}
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
      {used && (
        <Suspense fallback={null}>
          <LanguageMenuList
            id={menuId}
            anchor={anchor}
            current={choice.locale}
            onClose={() => setAnchor(null)}
            onChoose={(locale) => {
              setAnchor(null);
              if (locale !== choice.locale) choice.setLocale(locale);
            }}
          />
        </Suspense>
      )}
    </>
  );
};
