import { Alert, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useLocation } from 'react-router-dom';
import type { ConsoleDataProvider } from '../../dataProvider';
import { errorMessage, fieldErrors } from '../../httpClient';
import { useSettings } from '../../settings';
import type { LinkedIdentity } from '../../types';
import { formatDateTime } from '../../utils/dates';
import { browserNavigation } from '../../utils/browserNavigation';
import { oidcErrorMessage } from '../oidc/oidcErrors';

// The profile's institutional identities (OpenID Connect): the linked ones (GET /api/identities) with
// Unlink (confirmed; refused for the only way into an account without a password), and a Link
// button per configured provider that asks for the password again (POST /api/identities) and
// sends the browser to the provider. The outcome comes back as ?identity_linked, or ?identity_error
// (a code, worded by oidcErrors.ts) with ?identity_provider.

/** Under a linked identity: when it was linked, and whether a password reset would unlink it. */
const linkedNote = (identity: LinkedIdentity, translate: (key: string, options?: object) => string) => {
  if (!identity.can_unlink) return translate('identities.only_way_in');
  const date = formatDateTime(identity.linked_at);
  return identity.linked_with === 'password' ? translate('identities.reset_unlinks', { date }) : translate('identities.linked_at', { date });
};

const useIdentityCalls = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useMemo(() => {
    return {
      mine: () => dataProvider.getLinkedIdentities(),
      ofUser: (userId: number | string) => dataProvider.getUserIdentities(userId),
      startLink: (provider: string, password: string) => dataProvider.startIdentityLink(provider, password),
      unlink: (id: number) => dataProvider.unlinkIdentity(id),
    };
  }, [dataProvider]);
};

const outcomeIn = (search: string) => {
  const params = new URLSearchParams(search);
  return { linked: params.get('identity_linked'), error: params.get('identity_error'), provider: params.get('identity_provider') };
};

export const LinkedIdentities = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const calls = useIdentityCalls();
  const providers = settings.oidcProviders ?? [];
  const { data: identities = [], error } = useQuery({ queryKey: ['identities'], queryFn: calls.mine });
  // A provider already linked is not offered again.
  const linkable = providers.filter((provider) => !identities.some((identity) => identity.provider === provider.id));
  const { search } = useLocation();
  const [outcome] = useState(() => outcomeIn(search));
  const [linking, setLinking] = useState<{ id: string; name: string } | null>(null);
  const [unlinking, setUnlinking] = useState<LinkedIdentity | null>(null);
  const [busy, setBusy] = useState(false);

  if (providers.length === 0 && identities.length === 0) return null;
  const linkedName = outcome.linked ? (providers.find((provider) => provider.id === outcome.linked)?.name ?? outcome.linked) : null;

  const unlink = async () => {
    if (!unlinking) return;
    setBusy(true);
    try {
      await calls.unlink(unlinking.id);
      notify('identities.unlinked', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['identities'] });
    } catch (failure) {
      notify(errorMessage(failure), { type: 'error' });
    } finally {
      setBusy(false);
      setUnlinking(null);
    }
  };

  return (
    <Card component="section" aria-labelledby="profile-identities-title">
      <CardContent>
        <Typography id="profile-identities-title" variant="h6" component="h2" gutterBottom>
          {translate('identities.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('identities.intro')}
        </Typography>
        {linkedName && (
          <Alert severity="success" sx={{ mb: 1 }}>
            {translate('oidc.linked', { name: linkedName })}
          </Alert>
        )}
        {outcome.error && (
          <Alert severity="error" sx={{ mb: 1 }} role="alert">
            {oidcErrorMessage(translate, outcome.error, outcome.provider, providers)}
          </Alert>
        )}
        {error ? <Alert severity="error">{errorMessage(error)}</Alert> : null}
        {identities.length === 0 ? (
          <Typography variant="body2">{translate('identities.none')}</Typography>
        ) : (
          <List dense disablePadding aria-label={translate('identities.title')}>
            {identities.map((identity) => (
              <ListItem
                key={identity.id}
                disableGutters
                secondaryAction={
                  <Button size="small" color="error" disabled={!identity.can_unlink} onClick={() => setUnlinking(identity)}>
                    {translate('identities.unlink')}
                  </Button>
                }
              >
                <ListItemText
                  sx={{ pr: 12, overflowWrap: 'anywhere' }}
                  primary={`${identity.provider_name}${identity.email ? ` · ${identity.email}` : ''}`}
                  secondary={linkedNote(identity, translate)}
                />
              </ListItem>
            ))}
          </List>
        )}
        {linkable.length > 0 && (
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap' }} useFlexGap>
            {linkable.map((provider) => (
              <Button key={provider.id} variant="outlined" onClick={() => setLinking(provider)}>
                {translate('identities.link', { name: provider.name })}
              </Button>
            ))}
          </Stack>
        )}
      </CardContent>
      <ConfirmDialog
        destructive
        isOpen={unlinking !== null}
        loading={busy}
        title={translate('identities.unlink_title', { name: unlinking?.provider_name ?? '' })}
        content={translate('identities.unlink_content', { name: unlinking?.provider_name ?? '' })}
        confirm="identities.unlink"
        onConfirm={() => void unlink()}
        onClose={() => setUnlinking(null)}
      />
      {linking && <LinkDialog provider={linking} onClose={() => setLinking(null)} start={calls.startLink} />}
    </Card>
  );
};

const LinkDialog = ({
  provider,
  onClose,
  start,
}: {
  provider: { id: string; name: string };
  onClose: () => void;
  start: (provider: string, password: string) => Promise<{ url: string }>;
}) => {
  const translate = useTranslate();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setSaving(true);
    try {
      const { url } = await start(provider.id, password);
      browserNavigation.assign(url);
    } catch (failure) {
      const fields = fieldErrors(failure);
      setProblem(fields ? [Object.values(fields)].flat(2).join(' ') : errorMessage(failure));
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="link-dialog-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="link-dialog-title">{translate('identities.link_title', { name: provider.name })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('identities.link_intro', { name: provider.name })}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('identities.link_notice')}
          </Typography>
          <TextField
            autoFocus
            type="password"
            name="password"
            autoComplete="current-password"
            label={translate('identities.password')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={!!problem}
            helperText={problem}
            fullWidth
            required
            margin="dense"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('app.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={saving || password === ''}>
            {translate('identities.continue')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

/** The admin user page's list of a user's identities (GET /api/admin/users/{id}/identities). */
export const AdminUserIdentities = ({ userId }: { userId: number | string }) => {
  const translate = useTranslate();
  const calls = useIdentityCalls();
  const { data: identities, error } = useQuery({ queryKey: ['admin-identities', userId], queryFn: () => calls.ofUser(userId) });
  if (error) return <Alert severity="error">{errorMessage(error)}</Alert>;
  if (!identities) return null;
  return (
    <Stack spacing={1} component="section" aria-labelledby="admin-identities-title" sx={{ mt: 2 }}>
      <Typography id="admin-identities-title" variant="subtitle1" component="h3">
        {translate('identities.admin_title')}
      </Typography>
      {identities.length === 0 ? (
        <Typography variant="body2">{translate('identities.none')}</Typography>
      ) : (
        <List dense disablePadding aria-label={translate('identities.admin_title')}>
          {identities.map((identity) => (
            <ListItem key={identity.id} disableGutters>
              <ListItemText
                sx={{ overflowWrap: 'anywhere' }}
                primary={`${identity.provider_name}${identity.email ? ` · ${identity.email}` : ''}`}
                secondary={`${identity.issuer} · ${translate('identities.linked_at', { date: formatDateTime(identity.linked_at) })}`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
};
