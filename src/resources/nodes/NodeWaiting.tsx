import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import { Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { INSTALL_TERMINAL_ID } from './InstallationPanel';

/**
 * The node page while the machine has not joined the cluster yet: 'to install' (nobody ran
 * the install yet: what to do, and a way to the command) or 'installing' (the machine checked
 * in and is joining). The page follows the node (NodeStatusChanged, and polling as a
 * fallback), so this goes away by itself; it says so, so that nobody reloads or waits unsure.
 */
export const NodeWaiting = ({ status }: { status: 'to install' | 'installing' }) => {
  const translate = useTranslate();
  const installing = status === 'installing';

  // The command is further down the page (below the fold on a phone): scroll to it, and put the
  // focus on its copy button, the next thing to do.
  const showCommand = () => {
    const section = document.getElementById(INSTALL_TERMINAL_ID)?.closest('section');
    section?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    section?.querySelector<HTMLButtonElement>('button')?.focus({ preventScroll: true });
  };

  return (
    <Card variant="outlined" sx={{ borderColor: 'primary.main' }} data-testid="node-waiting" data-status={status}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
          {/* Decorative: the text below says what happens, and is announced when it changes. */}
          <CircularProgress size={28} thickness={5} aria-hidden sx={{ flexShrink: 0, mt: 0.25 }} />
          <Box role="status" sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
              {translate(installing ? 'nodes.waiting.installing_title' : 'nodes.waiting.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {translate(installing ? 'nodes.waiting.installing_body' : 'nodes.waiting.body')}
            </Typography>
          </Box>
        </Stack>
        {!installing && (
          <Box sx={{ mt: 1.5, pl: { sm: 5.5 } }}>
            <Button size="small" variant="outlined" startIcon={<ArrowDownwardIcon />} onClick={showCommand}>
              {translate('nodes.waiting.show_command')}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
