import AddIcon from '@mui/icons-material/Add';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import { Box, Chip, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useState } from 'react';
import {
  Button,
  DataTable,
  DeleteWithConfirmButton,
  List,
  SimpleList,
  TopToolbar,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../../components/EmptyState';
import type { Token } from '../../types';
import { formatDateTime } from '../../utils/dates';
import { TokenCreateDialog } from './TokenCreateDialog';
import { type CreatedToken, TokenSecretDialog } from './TokenSecretDialog';

/** Create button + dialogs: the form, then the plain text shown once. */
const useTokenCreation = () => {
  const refresh = useRefresh();
  const [formOpen, setFormOpen] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const dialogs = (
    <>
      <TokenCreateDialog
        open={formOpen}
        onClose={() => setFormOpen(false)}
        onCreated={(token) => {
          setFormOpen(false);
          setCreated(token);
          refresh();
        }}
      />
      <TokenSecretDialog token={created} onClose={() => setCreated(null)} />
    </>
  );
  // The icon as the child, not startIcon: on a phone react-admin's Button shows only its child,
  // as an icon button named by the label (with startIcon it was an empty, unnamed button).
  const button = (
    <Button label="ra.action.create" onClick={() => setFormOpen(true)} variant="contained">
      <AddIcon />
    </Button>
  );
  return { button, dialogs };
};

const Empty = ({ button }: { button: React.ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%' }}>
      <EmptyState
        icon={<KeyOutlinedIcon />}
        title={translate('resources.tokens.empty.title')}
        body={translate('resources.tokens.empty.body')}
      />
      <Box sx={{ textAlign: 'center', pb: 3 }}>{button}</Box>
    </Box>
  );
};

const Abilities = ({ record }: { record: Token }) => (
  <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
    {(record.abilities ?? []).map((ability) => (
      <Chip key={ability} label={ability} size="small" variant="outlined" sx={{ fontFamily: 'monospace' }} />
    ))}
  </Stack>
);

export interface TokenListProps {
  /** Inside another page (the profile): no page title, no URL sync. */
  embedded?: boolean;
}

/** /tokens, and the access tokens table of the profile page. */
export const TokenList = ({ embedded = false }: TokenListProps) => {
  const translate = useTranslate();
  const { button, dialogs } = useTokenCreation();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const lastUsed = (record: Token) =>
    record.last_used_at ? formatDateTime(record.last_used_at) : translate('resources.tokens.never_used');
  return (
    <>
      <List<Token>
        resource="tokens"
        title={embedded ? false : undefined}
        disableSyncWithLocation={embedded}
        storeKey={embedded ? 'profile.tokens' : undefined}
        sort={{ field: 'created_at', order: 'DESC' }}
        perPage={25}
        actions={<TopToolbar>{button}</TopToolbar>}
        empty={<Empty button={button} />}
        sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
      >
        {!embedded && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 2 }}>
            {translate('resources.tokens.intro')}
          </Typography>
        )}
        {phone ? (
          // Below `sm`, as in react-admin's demo: one row per token, Delete at its end.
          <SimpleList<Token>
            rowClick={false}
            primaryText={(record) => record.name}
            secondaryText={(record) => `${translate('app.labelled', { label: translate('resources.tokens.fields.last_used_at') })} ${lastUsed(record)}`}
            tertiaryText={(record) => <Abilities record={record} />}
            rightIcon={() => <DeleteWithConfirmButton redirect={false} />}
          />
        ) : (
          <DataTable<Token> bulkActionButtons={false} rowClick={false} sx={{ '& table': { minWidth: 800 } }}>
            <DataTable.Col<Token> source="name" sx={{ fontWeight: 600 }} />
            <DataTable.Col<Token> source="abilities" disableSort render={(record) => <Abilities record={record} />} />
            <DataTable.Col<Token> source="created_at" render={(record) => formatDateTime(record.created_at)} />
            <DataTable.Col<Token>
              source="expires_at"
              render={(record) => (record.expires_at ? formatDateTime(record.expires_at) : translate('resources.tokens.never'))}
            />
            <DataTable.Col<Token> source="last_used_at" render={lastUsed} />
            <DataTable.Col<Token> align="right" disableSort>
              <DeleteWithConfirmButton redirect={false} />
            </DataTable.Col>
          </DataTable>
        )}
      </List>
      {dialogs}
    </>
  );
};
