import { Card, CardContent, Typography } from '@mui/material';
import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { TokenCreateForm } from './TokenCreateForm';
import { type CreatedToken, TokenSecretDialog } from './TokenSecretDialog';

/** /tokens/create: the create form as a page; after the plain text is shown, back to the list. */
export const TokenCreate = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <>
      <Title title="resources.tokens.create.title" />
      <Card sx={{ mt: 2, maxWidth: 640 }}>
        <CardContent>
          <Typography variant="h6" component="h1" gutterBottom>
            {translate('resources.tokens.create.title')}
          </Typography>
          <TokenCreateForm onCreated={setCreated} onCancel={() => navigate('/tokens')} />
        </CardContent>
      </Card>
      <TokenSecretDialog
        token={created}
        onClose={() => {
          setCreated(null);
          navigate('/tokens');
        }}
      />
    </>
  );
};
