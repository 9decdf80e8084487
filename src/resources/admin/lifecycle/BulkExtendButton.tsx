import EventRepeatOutlinedIcon from '@mui/icons-material/EventRepeatOutlined';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { type BulkSelection, BulkFlowDialog, countInWords, totalsInWords, useBulkSelection, useFormatCount } from '../bulk';
import type { BulkExtendAnswer } from './types';

/** What the dialog proposes first, and the bounds the server takes (docs/api-contract.md). */
export const DEFAULT_EXTEND_DAYS = 90;
const MAX_DAYS = 3650;

type List = 'teams' | 'workspaces';

/**
 * "Extend…" on the admin teams and workspaces lists (POST /api/admin/{teams,workspaces}/bulk
 * {action: 'extend', days}): asks by how many days (90 unless changed), then goes through the
 * bulk actions' dialog: the server's dry run says how many end dates move and how many
 * suspensions lift, the admin confirms, and the result lists what was skipped (no end date),
 * gone, or extended but still suspended (its team's review date has passed), with the
 * server's reason. The checked rows, or everything the list's filter matches
 * (`filterOf` turns the list's filter values into the bulk body's `filter`).
 */
export const BulkExtendButton = ({ list, filterOf }: { list: List; filterOf: (values: Record<string, unknown>) => Record<string, unknown> }) => {
  const translate = useTranslate();
  const selection = useBulkSelection();
  const { onUnselectItems } = useListContext();
  const [asking, setAsking] = useState<BulkSelection | null>(null);
  const [running, setRunning] = useState<{ selection: BulkSelection; days: number } | null>(null);
  return (
    <>
      <Button size="small" color="primary" startIcon={<EventRepeatOutlinedIcon />} onClick={() => setAsking(selection)}>
        {translate('admin_ends.extend.button')}
      </Button>
      {asking && (
        <ExtendDaysDialog
          count={asking.count}
          list={list}
          onCancel={() => setAsking(null)}
          onContinue={(days) => {
            setRunning({ selection: asking, days });
            setAsking(null);
          }}
        />
      )}
      {running && (
        <BulkExtendDialog
          list={list}
          days={running.days}
          target={running.selection.allMatching ? { filter: filterOf(running.selection.filterValues) } : { ids: running.selection.ids }}
          onClose={(finished) => {
            if (finished) onUnselectItems();
            setRunning(null);
          }}
        />
      )}
    </>
  );
};

/** The first step: by how many days (a whole number from 1 to 3650). */
const ExtendDaysDialog = ({ count, list, onCancel, onContinue }: { count: number; list: List; onCancel: () => void; onContinue: (days: number) => void }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const [text, setText] = useState(String(DEFAULT_EXTEND_DAYS));
  const days = Number(text);
  const valid = /^\d+$/.test(text.trim()) && days >= 1 && days <= MAX_DAYS;
  const items = countInWords(translate, format, `adminBulk.${list}.count`, count);
  return (
    <Dialog open onClose={onCancel} aria-labelledby="extend-days-title" fullWidth maxWidth="xs">
      <Stack
        component="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) onContinue(days);
        }}
      >
        <DialogTitle id="extend-days-title">{translate('admin_ends.extend.days_title', { items })}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate('admin_ends.extend.days_intro')}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            type="number"
            label={translate('admin_ends.extend.days')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            error={!valid}
            helperText={translate(valid ? 'admin_ends.extend.days_help' : 'admin_ends.extend.days_invalid')}
            slotProps={{ htmlInput: { min: 1, max: MAX_DAYS, step: 1 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!valid}>
            {translate('admin_ends.extend.continue')}
          </Button>
        </DialogActions>
      </Stack>
    </Dialog>
  );
};

/** The second step: the dry run, the confirmation, the extension and its result. */
const BulkExtendDialog = ({
  list,
  days,
  target,
  onClose,
}: {
  list: List;
  days: number;
  target: { ids: BulkSelection['ids'] } | { filter: Record<string, unknown> };
  onClose: (finished: boolean) => void;
}) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  const items = (count: number) => countInWords(translate, format, `adminBulk.${list}.count`, count);
  const dayCount = countInWords(translate, format, 'admin_ends.extend.day_count', days);
  return (
    <BulkFlowDialog<BulkExtendAnswer>
      titleId="bulk-extend-title"
      send={(dryRun) => dataProvider.bulkExtend(list, { ...target, days, ...(dryRun ? { dry_run: true } : {}) })}
      confirmation={(preview) => {
        const { done, skipped, not_found: gone } = preview.totals;
        const resumed = preview.reach.resumed_workspaces;
        return {
          title: translate('admin_ends.extend.title', { items: items(done), days: dayCount }),
          nothing: done === 0,
          content:
            done === 0
              ? translate('admin_ends.extend.nothing')
              : [
                  translate('admin_ends.extend.content', { items: items(done), days: dayCount }),
                  ...(resumed > 0 ? [countInWords(translate, format, 'admin_ends.extend.resumed', resumed)] : []),
                  ...(skipped > 0 ? [countInWords(translate, format, 'admin_ends.extend.skipped', skipped)] : []),
                  ...(gone > 0 ? [countInWords(translate, format, 'admin_ends.extend.gone', gone)] : []),
                ].join(' '),
        };
      }}
      confirmLabel={translate('admin_ends.extend.confirm')}
      confirmColor="primary"
      running={(preview) => translate('admin_ends.extend.running', { items: items(preview.totals.done) })}
      outcome={(answer) => ({
        summary: totalsInWords(translate, format, [
          ['admin_ends.extend.outcome.extended', answer.totals.done],
          ['admin_ends.extend.outcome.skipped', answer.totals.skipped],
          ['admin_ends.extend.outcome.not_found', answer.totals.not_found],
        ]),
        // What was not done, and what was done but stays suspended, each with why.
        failures: answer.results
          .filter((item) => item.status !== 'done' || item.message)
          .map((item) => ({
            id: item.id,
            name: item.name,
            reason:
              item.status === 'not_found'
                ? 'adminBulk.not_found'
                : item.status === 'skipped'
                  ? 'admin_ends.extend.no_end'
                  : 'admin_ends.extend.still_suspended',
          })),
      })}
      onDone={refresh}
      onClose={onClose}
    />
  );
};
