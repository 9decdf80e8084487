import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  type SxProps,
  type Theme,
  Typography,
} from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { BulkActionsToolbar, type Identifier, type RaRecord, type TranslateFunction, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { errorMessage } from '../../httpClient';

// The bulk actions of the admin lists and /requests: a toolbar whose selection is
// either the checked rows or, after "Select all N matching", everything the list's filter
// matches on the server (not only the loaded page); and the dialog every bulk action goes
// through: the server's dry run first (so the confirmation says what will happen, with the
// server's counts), then the action (progress while the one request runs), then the totals
// and every item that was not done, with the server's reason.

/** 1,234 in the console's language. */
export const useFormatCount = () => {
  const [locale] = useLocaleState();
  return useCallback((count: number) => count.toLocaleString(locale), [locale]);
};

/**
 * A count in words, with the catalogue's singular or plural for it ('1 workspace', '1,234
 * workspaces'): the message `key` gets `smart_count` and `count`, the number as the language
 * writes it.
 */
export const countInWords = (translate: TranslateFunction, format: (count: number) => string, key: string, count: number): string =>
  translate(key, { smart_count: count, count: format(count) });

/** countInWords with the console's translate and number format. */
export const useCountInWords = () => {
  const translate = useTranslate();
  const format = useFormatCount();
  return useCallback((key: string, count: number) => countInWords(translate, format, key, count), [translate, format]);
};

interface AllMatching {
  allMatching: boolean;
  setAllMatching: (value: boolean) => void;
  isSelectable: (record: RaRecord) => boolean;
}

const AllMatchingContext = createContext<AllMatching>({ allMatching: false, setAllMatching: () => undefined, isSelectable: () => true });

/** What the bulk buttons act on: the checked rows, or every row the list's filter matches. */
export interface BulkSelection {
  allMatching: boolean;
  ids: Identifier[];
  /** How many: the checked rows, or the list's total. */
  count: number;
  filterValues: Record<string, unknown>;
}

export const useBulkSelection = (): BulkSelection => {
  const { allMatching } = useContext(AllMatchingContext);
  const { selectedIds = [], total = 0, filterValues = {} } = useListContext();
  return { allMatching, ids: [...selectedIds], count: allMatching ? total : selectedIds.length, filterValues };
};

/**
 * "Select all N matching": shown once every (selectable) row of the page is checked and the
 * list has more; it switches the selection to the list's filter. Unticking a row or changing
 * the filter switches back to the rows.
 */
export const SelectAllMatchingButton = ({ label = 'adminBulk.select_all', selectedLabel = 'adminBulk.all_selected' }: { label?: string; selectedLabel?: string }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const { allMatching, setAllMatching, isSelectable } = useContext(AllMatchingContext);
  const { selectedIds = [], total = 0, data = [], filterValues } = useListContext();
  const selectable = data.filter(isSelectable);
  const wholePage = selectable.length > 0 && selectable.every((record) => selectedIds.includes(record.id));
  const filterKey = JSON.stringify(filterValues ?? {});
  useEffect(() => {
    if (!wholePage) setAllMatching(false);
  }, [wholePage, setAllMatching]);
  useEffect(() => setAllMatching(false), [filterKey, setAllMatching]);
  if (!wholePage || total <= data.length) return null;
  const counts = { count: format(total), smart_count: total };
  if (allMatching) {
    // A state, said as a sentence (announced when it appears), not a button that does nothing;
    // unticking a row goes back to the checked rows.
    return (
      <Typography component="span" variant="body2" role="status" sx={{ color: 'text.primary', fontWeight: 500, px: 1 }}>
        {translate(selectedLabel, counts)}
      </Typography>
    );
  }
  return (
    <Button size="small" onClick={() => setAllMatching(true)}>
      {translate(label, counts)}
    </Button>
  );
};

/**
 * The bulk toolbar's colours, and its layout on phones. On phones the toolbar is part of the page, not a 48 px bar laid over the list's own toolbar:
 * the count, "Select all N matching" and the actions wrap onto as many lines as they need
 * instead of being cut off at the screen's edge.
 */
const bulkToolbarColoursSx: SxProps<Theme> = (theme) => ({
  // The toolbar's tinted background leaves MUI's main success, error and warning text at
  // about 4:1; their dark shades read at 4.5:1 or more (WCAG AA).
  '& .RaBulkActionsToolbar-toolbar': {
    '& .MuiButton-textSuccess': { color: theme.palette.success.dark },
    '& .MuiButton-textError': { color: theme.palette.error.dark },
    '& .MuiButton-textWarning': { color: theme.palette.warning.dark },
  },
});

const bulkToolbarPhoneSx: SxProps<Theme> = (theme) => ({
  // `&&`: react-admin's own rules for these classes have the same specificity and come later.
  [theme.breakpoints.down('sm')]: {
    '&& .RaBulkActionsToolbar-toolbar': { position: 'static', height: 'auto', minHeight: 48, transform: 'none', flexWrap: 'wrap', columnGap: 1, py: 0.5, px: 1 },
    '&& .RaBulkActionsToolbar-collapsed': { display: 'none' },
    // The count and "Select all N matching" on a line of their own, the actions under them.
    '&& .RaBulkActionsToolbar-title': { flexWrap: 'wrap', flex: '1 1 100%', minWidth: 0 },
    '&& .RaBulkActionsToolbar-title .MuiButton-root': { whiteSpace: 'normal', textAlign: 'left' },
    '&& .RaBulkActionsToolbar-topToolbar': { flexWrap: 'wrap', p: 0 },
  },
});

/**
 * The bulk toolbar of a list: react-admin's, with "Select all N matching" (`selectAll`) instead
 * of its select-all (which loads every id into the browser, 250 at most). `isSelectable`: the
 * rows that can be checked (as the DataTable's isRowSelectable).
 */
export const BulkToolbar = ({
  children,
  selectAll = true,
  isSelectable,
  selectAllLabel,
  allSelectedLabel,
}: {
  children: ReactNode;
  selectAll?: boolean;
  isSelectable?: (record: RaRecord) => boolean;
  selectAllLabel?: string;
  allSelectedLabel?: string;
}) => {
  const [allMatching, setAllMatching] = useState(false);
  const value = useMemo(() => ({ allMatching, setAllMatching, isSelectable: isSelectable ?? (() => true) }), [allMatching, isSelectable]);
  return (
    <AllMatchingContext.Provider value={value}>
      <Box sx={[bulkToolbarColoursSx, bulkToolbarPhoneSx]}>
        <BulkActionsToolbar selectAllButton={selectAll ? <SelectAllMatchingButton label={selectAllLabel} selectedLabel={allSelectedLabel} /> : false}>
          {children}
        </BulkActionsToolbar>
      </Box>
    </AllMatchingContext.Provider>
  );
};

/**
 * A bulk action's totals in words, each count with the catalogue's plural forms ("28 users
 * disabled. 1 left as it was. 1 refused."): the first part (what was done) always, the others
 * only when they happened. Each message ends its own sentence.
 */
export const totalsInWords = (translate: TranslateFunction, format: (count: number) => string, parts: [key: string, count: number][]): string =>
  parts
    .filter(([, count], index) => index === 0 || count > 0)
    .map(([key, count]) => countInWords(translate, format, key, count))
    .join(' ');

/** One item the action did not do, as the result lists it. */
export interface BulkFailure {
  id: Identifier;
  /** What the item is (a name), when known. */
  name?: string;
  reason: string;
}

export interface BulkOutcome {
  /** The totals, in a sentence. */
  summary: string;
  failures: BulkFailure[];
}

export interface BulkFlowProps<Answer> {
  /** Labels the dialog for assistive technology (and tests). */
  titleId: string;
  /** Asks the server: the dry run (true), then the action (false). */
  send: (dryRun: boolean) => Promise<Answer>;
  /** The title and text of the confirmation, from the dry run; `nothing` when the action would change nothing. */
  confirmation: (preview: Answer) => { title: string; content: ReactNode; nothing?: boolean };
  /** Shown under the confirmation's text (e.g. a message field). */
  extra?: ReactNode;
  confirmLabel: string;
  confirmColor: 'error' | 'success' | 'warning' | 'primary';
  /** "Working on 12 teams…", from the dry run. */
  running: (preview: Answer) => string;
  outcome: (answer: Answer) => BulkOutcome;
  /** After the action answered (refresh the list). */
  onDone: () => void;
  /** Closing: `finished` once the action ran (clear the selection). */
  onClose: (finished: boolean) => void;
}

type Stage<Answer> =
  | { stage: 'counting' }
  | { stage: 'confirm'; preview: Answer }
  | { stage: 'running'; preview: Answer }
  | { stage: 'result'; answer: Answer }
  | { stage: 'failed'; message: string; ran: boolean };

/** Failures listed in the result at most (the totals count them all). */
const SHOWN_FAILURES = 100;

/** The dialog of a bulk action: dry run, confirmation, progress, result. Mounted when the action starts. */
export function BulkFlowDialog<Answer>(props: BulkFlowProps<Answer>) {
  const { titleId, send, confirmation, extra, confirmLabel, confirmColor, running, outcome, onDone, onClose } = props;
  const translate = useTranslate();
  const [state, setState] = useState<Stage<Answer>>({ stage: 'counting' });

  // The dry run, once, when the dialog opens (`send` is a new function at each render).
  useEffect(() => {
    let current = true;
    send(true).then(
      (preview) => current && setState({ stage: 'confirm', preview }),
      (error) => current && setState({ stage: 'failed', message: errorMessage(error, 'adminBulk.error'), ran: false }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the dry run runs once, when the dialog opens
  }, []);

  const confirm = async (preview: Answer) => {
    setState({ stage: 'running', preview });
    try {
      const answer = await send(false);
      setState({ stage: 'result', answer });
    } catch (error) {
      setState({ stage: 'failed', message: errorMessage(error, 'adminBulk.error'), ran: true });
    }
    onDone();
  };
  const finished = state.stage === 'result' || (state.stage === 'failed' && state.ran);
  const close = () => {
    if (state.stage !== 'running') onClose(finished);
  };

  const confirming = state.stage === 'confirm' || state.stage === 'running' ? confirmation(state.preview) : null;
  const title =
    state.stage === 'result' || (state.stage === 'failed' && state.ran)
      ? translate('adminBulk.result_title')
      : (confirming?.title ?? translate('adminBulk.counting_title'));

  return (
    <Dialog open onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {state.stage === 'counting' && (
          <Box role="status">
            <DialogContentText>{translate('adminBulk.counting')}</DialogContentText>
            <LinearProgress sx={{ mt: 2 }} aria-label={translate('adminBulk.counting')} />
          </Box>
        )}
        {confirming && (
          <>
            <DialogContentText component="div">{confirming.content}</DialogContentText>
            {state.stage === 'confirm' && !confirming.nothing && extra}
          </>
        )}
        {state.stage === 'running' && (
          <Box role="status" sx={{ mt: 2 }}>
            <DialogContentText>{running(state.preview)}</DialogContentText>
            <LinearProgress sx={{ mt: 1 }} aria-label={translate('adminBulk.progress')} />
          </Box>
        )}
        {state.stage === 'result' && <BulkResult outcome={outcome(state.answer)} />}
        {state.stage === 'failed' && (
          <Alert severity="error" role="alert">
            {translate(state.message, { _: state.message })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {state.stage === 'confirm' ? (
          <>
            <Button onClick={close}>{translate('ra.action.cancel')}</Button>
            <Button variant="contained" color={confirmColor} disabled={confirming?.nothing} onClick={() => void confirm(state.preview)}>
              {confirmLabel}
            </Button>
          </>
        ) : (
          <Button onClick={close} disabled={state.stage === 'running' || state.stage === 'counting'}>
            {translate('ra.action.close')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The totals, then each item not done with the server's reason (the first hundred). */
export const BulkResult = ({ outcome }: { outcome: BulkOutcome }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const { summary, failures } = outcome;
  return (
    <Box role="status">
      <Alert severity={failures.length > 0 ? 'warning' : 'success'}>{summary}</Alert>
      {failures.length > 0 && (
        <List dense aria-label={translate('adminBulk.failures')} sx={{ maxHeight: 240, overflowY: 'auto' }}>
          {failures.slice(0, SHOWN_FAILURES).map((item) => (
            <ListItem key={String(item.id)} disableGutters>
              <ListItemText
                primary={item.name ? `#${item.id} (${item.name})` : `#${item.id}`}
                secondary={translate(item.reason, { _: item.reason })}
              />
            </ListItem>
          ))}
          {failures.length > SHOWN_FAILURES && (
            <ListItem disableGutters>
              <ListItemText primary={countInWords(translate, format, 'adminBulk.more', failures.length - SHOWN_FAILURES)} />
            </ListItem>
          )}
        </List>
      )}
    </Box>
  );
};
