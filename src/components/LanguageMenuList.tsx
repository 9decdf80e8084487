import CheckIcon from '@mui/icons-material/Check';
import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { LOCALES, LOCALE_NAMES, type Locale } from '../i18n/locale';

/** The language menu's popup (LanguageMenu loads it on first use: MUI's Menu is no small part of a logged-out page). */
export const LanguageMenuList = ({
  id,
  anchor,
  current,
  onClose,
  onChoose,
}: {
  id: string;
  anchor: HTMLElement | null;
  current: Locale;
  onClose: () => void;
  onChoose: (locale: Locale) => void;
}) => (
  <Menu id={id} anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
    {LOCALES.map((locale) => (
      <MenuItem key={locale} lang={locale} selected={locale === current} onClick={() => onChoose(locale)}>
        <ListItemIcon>{locale === current && <CheckIcon fontSize="small" />}</ListItemIcon>
        <ListItemText>{LOCALE_NAMES[locale]}</ListItemText>
      </MenuItem>
    ))}
  </Menu>
);
