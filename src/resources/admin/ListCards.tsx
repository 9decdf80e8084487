import { Box, Card, CardContent, Checkbox, FormControlLabel, Stack, type Theme, useMediaQuery } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { type Identifier, type RaRecord, useListContext, useTranslate } from 'react-admin';

// For phones: below the sm breakpoint the admin lists show one card per row instead of a table
// (as react-admin's demo does with its MobileGrid and SimpleList), so that nothing scrolls
// sideways on a phone and every action stays within reach. Unlike SimpleList, the cards keep
// the rows' checkboxes and the bulk toolbar: the bulk actions (and "Select all N matching")
// are as reachable on a phone as on a desktop.

/** Whether the screen is below the sm breakpoint, where lists show cards instead of tables. */
export const usePhoneLayout = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

interface ListCardsProps<RecordType extends RaRecord> {
  /** What a card shows: its title first (usually the link to the record's page). */
  children: (record: RecordType) => ReactNode;
  /** The list's bulk toolbar (BulkToolbar), shown above the cards once one is checked; false: no checkboxes. */
  bulkActionsToolbar?: ReactElement | false;
  /** The cards that can be checked (as the DataTable's isRowSelectable). */
  isRowSelectable?: (record: RecordType) => boolean;
  /** Names the list for assistive technology. */
  label: string;
  /** Shown when the list has no rows. */
  empty?: ReactNode;
}

/**
 * "Select every item on this page", above the cards: checking the whole page is what offers
 * "Select all N matching" in the bulk toolbar, as the table's header checkbox does. Not
 * `indeterminate` when some are checked: MUI then sets aria-checked="mixed" on the native
 * checkbox, which axe rejects (aria-conditional-attr).
 */
export const SelectPageCheckbox = <RecordType extends RaRecord>({ selectable }: { selectable: RecordType[] }) => {
  const translate = useTranslate();
  const { selectedIds = [], onSelect } = useListContext<RecordType>();
  if (selectable.length === 0) return null;
  const pageChecked = selectable.every((record) => selectedIds.includes(record.id));
  return (
    <FormControlLabel
      sx={{ mx: 0, px: 1, pt: 1 }}
      label={translate('admin_cards.select_page')}
      control={
        <Checkbox
          size="small"
          checked={pageChecked}
          onChange={(event) => onSelect?.(event.target.checked ? selectable.map((record) => record.id) : [])}
          slotProps={{ input: { 'aria-label': translate('ra.action.select_all') } }}
        />
      }
    />
  );
};

/** A card's checkbox, named as the table's row checkboxes are. */
export const CardCheckbox = ({ id }: { id: Identifier }) => {
  const translate = useTranslate();
  const { selectedIds = [], onToggleItem } = useListContext();
  return (
    <Checkbox
      size="small"
      sx={{ p: 0.5, mt: -0.5 }}
      checked={selectedIds.includes(id)}
      onChange={() => onToggleItem?.(id)}
      slotProps={{ input: { 'aria-label': translate('ra.action.select_row') } }}
    />
  );
};

/** The rows of the current list page as cards, each with its checkbox when the list has bulk actions. */
export const ListCards = <RecordType extends RaRecord>({ children, bulkActionsToolbar = false, isRowSelectable, label, empty }: ListCardsProps<RecordType>) => {
  const translate = useTranslate();
  const { data = [], isPending } = useListContext<RecordType>();
  if (isPending) return null;
  if (data.length === 0) return <>{empty ?? <Box sx={{ p: 2 }}>{translate('ra.navigation.no_results')}</Box>}</>;
  const selectable = bulkActionsToolbar ? data.filter((record) => isRowSelectable?.(record) ?? true) : [];
  return (
    <Box>
      {bulkActionsToolbar}
      <SelectPageCheckbox selectable={selectable} />
      <Stack spacing={1} sx={{ p: 1 }} role="list" aria-label={label}>
        {data.map((record) => (
          <Card key={record.id} variant="outlined" role="listitem" sx={{ minWidth: 0 }}>
            <CardContent sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', p: 1.5, '&:last-child': { pb: 1.5 } }}>
              {selectable.includes(record) && <CardCheckbox id={record.id} />}
              <Box sx={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>{children(record)}</Box>
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Box>
  );
};

/** One labelled fact of a card ('Members: 12'); the label is an i18n key. */
export const CardLine = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ typography: 'body2', display: 'flex', flexWrap: 'wrap', columnGap: 0.5, alignItems: 'baseline' }}>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {translate('app.labelled', { label: translate(label) })}
      </Box>
      <Box component="span" sx={{ minWidth: 0 }}>
        {children}
      </Box>
    </Box>
  );
};
