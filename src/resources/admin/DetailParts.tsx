import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { ActivityDescription } from '../../components/ActivityDescription';
import { Children, type ReactNode } from 'react';
import { TabbedShowLayoutTabs, type TabbedShowLayoutTabsProps, useTranslate } from 'react-admin';
import { formatDateTime } from '../../utils/dates';
import { SeverityChip } from './common';

// The pieces the admin show pages (users, teams, workspaces) build their tabs from.

/** A labelled value of a summary tab; an empty value shows as a dash rather than nothing. */
export const DetailField = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 1.5 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate(label)}
      </Typography>
      {/* Long values (emails, names) wrap rather than run past a phone's edge. */}
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {/* A dash for nothing to show; a count of 0 is something to show. */}
        {children === null || children === undefined || children === false || children === '' ? '—' : children}
      </Typography>
    </Box>
  );
};

interface DetailTableProps {
  /** The i18n prefix of the column titles, e.g. `adminUsers.columns`. */
  columns: string;
  /** The column keys under that prefix. */
  head: string[];
  children: ReactNode;
  /** The i18n key of what is said when there are no rows. */
  empty: string;
  /** Whether there are no rows; by default, whether `children` is empty. */
  isEmpty?: boolean;
}

/** A small table of a tab, scrolling sideways on phones instead of widening the page. */
export const DetailTable = ({ columns, head, children, empty, isEmpty = Children.count(children) === 0 }: DetailTableProps) => {
  const translate = useTranslate();
  if (isEmpty) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
        {translate(empty)}
      </Typography>
    );
  }
  const titles = head.map((key) => translate(`${columns}.${key}`));
  // A table wider than a phone scrolls inside this box; it takes the focus so that a keyboard
  // can scroll it too (arrow keys), and says what it holds.
  return (
    <Box
      sx={{ overflowX: 'auto', '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 } }}
      tabIndex={0}
      role="region"
      aria-label={titles.join(', ')}
    >
      <Table size="small">
        <TableHead>
          <TableRow>
            {head.map((key, index) => (
              <TableCell key={key}>{titles[index]}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </Box>
  );
};

interface ActivityEntryLike {
  id: number;
  created_at: string;
  description: string;
  properties: { severity?: string };
  causer?: { name: string } | null;
}

/** One row of an activity tab: when, severity, what, and (with `withCauser`) by whom. */
export const ActivityRow = ({ entry, withCauser = false }: { entry: ActivityEntryLike; withCauser?: boolean }) => (
  <TableRow>
    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</TableCell>
    <TableCell>
      <SeverityChip severity={entry.properties.severity} />
    </TableCell>
    <TableCell>
      <ActivityDescription description={entry.description} />
    </TableCell>
    {withCauser && <TableCell>{entry.causer?.name ?? '—'}</TableCell>}
  </TableRow>
);

/**
 * The admin show pages' tabs. On a phone four tabs fit when their padding is small (390 px); when they do not (a longer
 * translation, a narrower screen) they scroll, with scroll buttons that show on touch screens too.
 */
export const CompactTabs = (props: TabbedShowLayoutTabsProps) => (
  <TabbedShowLayoutTabs
    {...props}
    variant="scrollable"
    scrollButtons="auto"
    allowScrollButtonsMobile
    sx={{ '& .MuiTab-root': { minWidth: { xs: 0, sm: 90 }, px: { xs: 1, sm: 2 } }, '& .MuiTabs-scrollButtons.Mui-disabled': { opacity: 0.3 } }}
  />
);
