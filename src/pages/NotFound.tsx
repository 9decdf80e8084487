import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';

// Not `title`: react-admin passes its own `title` element to the catchAll component.
interface NotFoundProps {
  /** react-admin's app title, handed to every catchAll component; not shown here. */
  title?: unknown;
  /** Translation key of the heading (and the app bar's title); the unmatched-route title by default. */
  titleKey?: string;
  /** Translation key of the explanation; by default it names the path that matched nothing. */
  messageKey?: string;
}

/**
 * Unmatched console routes (react-admin catchAll), titled 'Unexpected Application Error!'. Also the
 * page of a record that does not exist or cannot be seen (a deleted workspace, a team of someone
 * else), with its own title and message, so that the app bar never shows an empty title after its
 * separator.
 */
export const NotFound = ({ titleKey = 'app.not_found.title', messageKey }: NotFoundProps) => {
  const translate = useTranslate();
  const { pathname } = useLocation();
  return (
    <Box sx={{ py: 4, display: 'flex', justifyContent: 'center' }}>
      <Title title={titleKey} />
      <Card sx={{ maxWidth: 560, width: '100%' }}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {translate(titleKey)}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {messageKey ? translate(messageKey) : translate('app.not_found.body', { path: pathname })}
          </Typography>
          <Button component={Link} to="/" variant="contained">
            {translate('app.not_found.back_home')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
};
