import { Link, SearchInput, useTranslate } from 'react-admin';
import { Chip, Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { RoleChip } from '../../components/RoleChip';

/** Admin tables keep a minimum width of 800 and scroll horizontally (a product constant). */
// The list's main column is a flex item: without minWidth 0 a wide table widens the page
// instead of scrolling inside its card. The scrolling is the table wrapper's, not the card's:
// an overflowing card would also clip the bulk actions toolbar drawn above the table.
export const adminListSx = { '& .RaList-main': { minWidth: 0 }, '& .RaDataTable-tableWrapper': { overflowX: 'auto' } };
// Cells 12 px apart rather than MUI's 16: with the menu beside it, a 1280 px screen left the
// teams list 15 px short, and its last column (the creation date) was cut.
export const adminTableSx = {
  '& table': { minWidth: 800 },
  '& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)': { px: 1.5 },
};

/** Names with their role badge ('Ada Lovelace [Owner]'), optionally linked. */
export const NamesWithRoles = ({
  items,
  to,
}: {
  items?: { id: number; name: string; role?: string | null }[] | null;
  to?: (item: { id: number; name: string }) => string;
}) => (
  <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
    {(items ?? []).map((item) => (
      <Stack key={item.id} direction="row" spacing={0.5} sx={{ alignItems: 'center', mr: 1 }}>
        <span>{to ? <Link to={to(item)}>{item.name}</Link> : item.name}</span>
        <RoleChip role={item.role} />
      </Stack>
    ))}
  </Stack>
);

export const Chips = ({ children }: { children: ReactNode }) => (
  <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
    {children}
  </Stack>
);

/** The activity entry's severity, in the console's language (unknown values as they come). */
export const SeverityChip = ({ severity }: { severity?: string | null }) => {
  const translate = useTranslate();
  if (!severity) return null;
  const color = severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'info';
  const label = translate(`resources.admin/activity.severity.${severity}`, { _: severity });
  return <Chip size="small" color={color} variant="outlined" label={label} data-severity={severity} />;
};

/** The search box of the admin lists (filter `q`), with a translated placeholder. */
export const AdminSearchInput = (props: { source: string; alwaysOn?: boolean }) => {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate('resources.search')} aria-label={translate('resources.search')} />;
};
