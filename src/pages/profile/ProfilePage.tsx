import EditIcon from '@mui/icons-material/Edit';
import LogoutIcon from '@mui/icons-material/Logout';
import { Box, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useLogout, useTranslate } from 'react-admin';
import { fullName } from '../../authProvider';
import { UserAvatar } from '../../components/UserAvatar';
import { useCurrentUser } from '../../hooks';
import { TokenList } from '../../resources/tokens/TokenList';
import { LinkedIdentities } from './LinkedIdentities';
import { ProfileEditDialog } from './ProfileEditDialog';
import { UserRequests } from './UserRequests';

/** /profile: user card (Edit, Logout), the user's requests, the access tokens table. */
export const ProfilePage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const logout = useLogout();
  const [editing, setEditing] = useState(false);
  if (!user) return null;
  const name = fullName(user);

  return (
    <Stack spacing={3} sx={{ py: 2 }}>
      <Title title="profile.title" />
      <Card component="section" aria-label={translate('profile.title')}>
        <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
            <UserAvatar email={user.email} name={name} size={96} />
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <Typography variant="h5" component="h1">
                {name}
              </Typography>
              <Typography color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                {user.email}
              </Typography>
              <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
                {user.admin && <Chip size="small" color="secondary" label={translate('profile.admin')} />}
                {user.email_verified_at ? (
                  <Chip size="small" color="success" variant="outlined" label={translate('profile.verified')} />
                ) : (
                  <Chip size="small" color="warning" variant="outlined" label={translate('profile.not_verified')} />
                )}
              </Stack>
            </Box>
            <Stack direction={{ xs: 'row', sm: 'column', md: 'row' }} spacing={1}>
              <Button variant="contained" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
                {translate('app.action.edit')}
              </Button>
              <Button variant="outlined" startIcon={<LogoutIcon />} onClick={() => logout({ redirectTo: '/' })}>
                {translate('app.action.logout')}
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      {editing && <ProfileEditDialog user={user} open={editing} onClose={() => setEditing(false)} />}

      <LinkedIdentities />

      <Card component="section" aria-labelledby="profile-requests-title">
        <CardContent>
          <Typography id="profile-requests-title" variant="h6" component="h2" gutterBottom>
            {translate('profile.requests.title')}
          </Typography>
          <UserRequests requests={user.requests ?? []} />
        </CardContent>
      </Card>

      <Box component="section" aria-labelledby="profile-tokens-title">
        <Typography id="profile-tokens-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('profile.tokens.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('resources.tokens.intro')}
        </Typography>
        <TokenList embedded />
      </Box>
    </Stack>
  );
};
