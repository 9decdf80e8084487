import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';

/** Unmatched console routes (react-admin catchAll): spec §2, §8. */
export const NotFound = () => {
  const translate = useTranslate();
  const { pathname } = useLocation();
  return (
    <Box sx={{ py: 4, display: 'flex', justifyContent: 'center' }}>
      <Title title="app.not_found.title" />
      <Card sx={{ maxWidth: 560, width: '100%' }}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate('app.not_found.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.not_found.body', { path: pathname })}
          </Typography>
          <Button component={Link} to="/" variant="contained">
            {translate('app.not_found.back_home')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};
