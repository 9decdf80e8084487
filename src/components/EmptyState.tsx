import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A friendly empty state: an icon, a sentence, and optionally a second line. */
export const EmptyState = ({ icon, title, body }: { icon?: ReactNode; title: ReactNode; body?: ReactNode }) => (
  <Box sx={{ textAlign: 'center', py: 3, px: 2, color: 'text.secondary' }}>
    {icon && <Box sx={{ '& svg': { fontSize: 40, opacity: 0.5 }, mb: 1 }}>{icon}</Box>}
    <Typography variant="body1" sx={{ color: 'text.primary' }}>
      {title}
    </Typography>
    {body && (
      // A paragraph for words; a div when the body holds blocks (a command line), which a <p> may not.
      <Typography variant="body2" component={typeof body === 'string' ? 'p' : 'div'} sx={{ mt: 0.5 }}>
        {body}
      </Typography>
    )}
  </Box>
);
