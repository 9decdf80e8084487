import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Box, Button, Tooltip } from '@mui/material';
import { useState } from 'react';
import { type Identifier, useDataProvider, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import { BulkFlowDialog, totalsInWords, useBulkSelection, useCountInWords, useFormatCount } from '../bulk';
import { BulkExtendButton } from '../lifecycle/BulkExtendButton';
import type { BulkWorkspacesAnswer } from './types';

/** Namespaces named in the confirmation at most (the count says how many in all). */
const LISTED = 10;

/** The workspaces list's filter values as the bulk body's `filter` (an extension by filter). */
export const bulkWorkspacesFilter = (values: Record<string, unknown>): Record<string, unknown> => {
  const filter: Record<string, unknown> = {};
  if (typeof values.q === 'string' && values.q !== '') filter.q = values.q;
  if (values.team_id !== undefined && values.team_id !== null && values.team_id !== '') filter.team_id = Number(values.team_id);
  if (typeof values.from === 'string' && values.from !== '') filter.from = values.from;
  if (typeof values.to === 'string' && values.to !== '') filter.to = values.to;
  if (values.expiring_within_days !== undefined && values.expiring_within_days !== '') filter.expiring_within_days = Number(values.expiring_within_days);
  if (values.expired === true || values.expired === 'true') filter.expired = true;
  if (values.expired === false || values.expired === 'false') filter.expired = false;
  return filter;
};

/**
 * Bulk Delete of the checked workspaces (POST /api/admin/workspaces/bulk): the dry run first,
 * so the confirmation says how many workspaces and members it reaches and names their
 * namespaces; then each is deleted as the workspace page's Delete does. Deletion goes by the
 * rows checked: after "Select all N matching" only Extend… applies.
 */
export const BulkWorkspaceButtons = () => {
  const translate = useTranslate();
  const { selectedIds = [], onUnselectItems } = useListContext();
  const { allMatching } = useBulkSelection();
  const [ids, setIds] = useState<Identifier[] | null>(null);
  const remove = (
    <Button size="small" color="error" startIcon={<DeleteOutlineIcon />} disabled={allMatching} onClick={() => setIds([...selectedIds])}>
      {translate('adminBulk.workspaces.delete')}
    </Button>
  );
  return (
    <>
      {allMatching ? (
        <Tooltip title={translate('adminBulk.workspaces.delete_by_rows')}>
          <span>{remove}</span>
        </Tooltip>
      ) : (
        remove
      )}
      <BulkExtendButton list="workspaces" filterOf={bulkWorkspacesFilter} />
      {ids && (
        <BulkDeleteDialog
          ids={ids}
          onClose={(finished) => {
            if (finished) onUnselectItems();
            setIds(null);
          }}
        />
      )}
    </>
  );
};

const BulkDeleteDialog = ({ ids, onClose }: { ids: Identifier[]; onClose: (finished: boolean) => void }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  const inWords = useCountInWords();
  const counted = (key: string, count: number) => inWords(`adminBulk.workspaces.${key}`, count);
  return (
    <BulkFlowDialog<BulkWorkspacesAnswer>
      titleId="bulk-workspaces-title"
      send={(dryRun) => dataProvider.bulkDeleteWorkspaces(ids, { dryRun })}
      confirmation={(preview) => {
        const going = preview.results.filter((item) => item.status === 'done');
        const workspaces = counted('count', preview.totals.done);
        return {
          title: translate('adminBulk.workspaces.delete_title', { workspaces }),
          nothing: going.length === 0,
          content:
            going.length === 0 ? (
              translate('adminBulk.workspaces.nothing')
            ) : (
              <>
                {translate('adminBulk.workspaces.delete_content', { workspaces, members: counted('members', preview.reach.members) })}
                {preview.totals.not_found > 0 && ` ${counted('skipped', preview.totals.not_found)}`}
                <Box component="ul" sx={{ mt: 1, mb: 0 }} aria-label={translate('adminBulk.workspaces.delete_title', { workspaces })}>
                  {going.slice(0, LISTED).map((item) => (
                    <li key={item.id}>
                      {item.namespace} ({counted('members', item.members ?? 0)})
                    </li>
                  ))}
                  {going.length > LISTED && <li>{inWords('adminBulk.more', going.length - LISTED)}</li>}
                </Box>
              </>
            ),
        };
      }}
      confirmLabel={translate('adminBulk.workspaces.delete')}
      confirmColor="error"
      running={(preview) => translate('adminBulk.workspaces.running', { workspaces: counted('count', preview.totals.done) })}
      outcome={(answer) => ({
        summary: totalsInWords(translate, format, [
          ['adminBulk.workspaces.outcome.deleted', answer.totals.done],
          ['adminBulk.workspaces.outcome.not_found', answer.totals.not_found],
        ]),
        failures: answer.results.filter((item) => item.status === 'not_found').map((item) => ({ id: item.id, reason: 'adminBulk.not_found' })),
      })}
      onDone={refresh}
      onClose={onClose}
    />
  );
};
