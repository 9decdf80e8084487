import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FilterListIcon from '@mui/icons-material/FilterList';
import { Accordion, AccordionDetails, AccordionSummary, Card, CardContent, IconButton, Stack, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { FilterList, FilterListItem, useTranslate } from 'react-admin';
import { adminListSx } from './common';

/** Local storage key of the admin's choice to show or hide the filter panel beside the lists. */
export const FILTER_PANEL_KEY = 'testbed-console.admin-filters';

const savedPanelChoice = (): boolean | null => {
  try {
    const value = window.localStorage.getItem(FILTER_PANEL_KEY);
    return value === 'open' ? true : value === 'closed' ? false : null;
  } catch {
    return null;
  }
};

/**
 * The filter sidebar of the admin lists (react-admin's FilterList, as in its demo's
 * VisitorListAside): a card beside the list on wide screens; on phones, a collapsed panel
 * above it, since a 15em column would leave the table no room.
 *
 * Beside the list it can be folded to a button: below 1440 px, menu, panel and an 800 px table
 * do not fit side by side, and the table's last columns (the dates) scrolled out of sight. It
 * starts folded there, and the admin's choice is remembered on this browser.
 */
export const FilterSidebar = ({ children }: { children: ReactNode }) => {
  const translate = useTranslate();
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const narrow = useMediaQuery('(max-width:1439.95px)', { noSsr: true });
  const [choice, setChoice] = useState<boolean | null>(savedPanelChoice);
  const open = choice ?? !narrow;
  const choose = (value: boolean) => {
    setChoice(value);
    try {
      window.localStorage.setItem(FILTER_PANEL_KEY, value ? 'open' : 'closed');
    } catch {
      // Private mode: the choice lasts as long as the page.
    }
  };
  if (small) {
    return (
      <Accordion disableGutters sx={{ order: -1, mb: 1 }} data-testid="filter-sidebar">
        <AccordionSummary expandIcon={<ExpandMoreIcon />}>
          <Typography variant="body2">{translate('admin_filters.title')}</Typography>
        </AccordionSummary>
        <AccordionDetails sx={{ pt: 0 }}>{children}</AccordionDetails>
      </Accordion>
    );
  }
  if (!open) {
    return (
      <Card component="aside" aria-label={translate('admin_filters.title')} sx={{ order: -1, flex: '0 0 auto', mr: 2, mt: 2, alignSelf: 'flex-start' }} data-testid="filter-sidebar">
        <Tooltip title={translate('admin_filters.show')} placement="right">
          <IconButton aria-label={translate('admin_filters.show')} aria-expanded={false} onClick={() => choose(true)}>
            <FilterListIcon />
          </IconButton>
        </Tooltip>
      </Card>
    );
  }
  return (
    <Card
      component="aside"
      aria-label={translate('admin_filters.title')}
      sx={{ order: -1, flex: '0 0 15em', mr: 2, mt: 2, alignSelf: 'flex-start' }}
      data-testid="filter-sidebar"
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', pl: 2, pr: 0.5, pt: 0.5 }}>
        <Typography variant="subtitle2">{translate('admin_filters.title')}</Typography>
        <Tooltip title={translate('admin_filters.hide')}>
          <IconButton size="small" aria-label={translate('admin_filters.hide')} aria-expanded onClick={() => choose(false)}>
            <ChevronLeftIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
};

/** The admin lists' layout with a sidebar: beside the list, above it on phones. */
export const asideListSx = { ...adminListSx, flexDirection: { xs: 'column', md: 'row' } };

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (days: number) => isoDay(new Date(Date.now() - days * 86_400_000));

/** A creation-date range as `filter[from]` / `filter[to]` (ISO days, both inclusive; docs/api-contract.md). */
export const DateRangeFilter = ({ label = 'admin_filters.date' }: { label?: string }) => {
  const year = new Date().getUTCFullYear();
  return (
    <FilterList label={label} icon={null}>
      <FilterListItem label="admin_filters.dates.today" value={{ from: daysAgo(0), to: undefined }} />
      <FilterListItem label="admin_filters.dates.week" value={{ from: daysAgo(6), to: undefined }} />
      <FilterListItem label="admin_filters.dates.month" value={{ from: daysAgo(29), to: undefined }} />
      <FilterListItem label="admin_filters.dates.year" value={{ from: `${year}-01-01`, to: undefined }} />
      <FilterListItem label="admin_filters.dates.earlier" value={{ from: undefined, to: `${year - 1}-12-31` }} />
    </FilterList>
  );
};

/**
 * When it ends: within 7 or 30 days, or ended (`filter[expiring_within_days]`,
 * `filter[expired]`; docs/api-contract.md, "Admin lists"). Choosing one clears the other.
 */
export const EndFilter = () => (
  <FilterList label="admin_ends.filter" icon={null}>
    <FilterListItem label="admin_ends.within_7" value={{ expiring_within_days: 7, expired: undefined }} />
    <FilterListItem label="admin_ends.within_30" value={{ expiring_within_days: 30, expired: undefined }} />
    <FilterListItem label="admin_ends.ended" value={{ expired: true, expiring_within_days: undefined }} />
  </FilterList>
);

/** Autocompletes search the server (q) as one types: a menu of every team or user is unusable past a few hundred. */
export const searchAtServer = (text: string) => (text.trim() ? { q: text.trim() } : {});

/** A FilterList of fixed values of one filter (severity, status, type…). */
export const ChoiceFilter = ({ label, source, choices }: { label: string; source: string; choices: { id: string; name: string }[] }) => (
  <FilterList label={label} icon={null}>
    {choices.map((choice) => (
      <FilterListItem key={choice.id} label={choice.name} value={{ [source]: choice.id }} />
    ))}
  </FilterList>
);
