import { Box, type BoxProps } from '@mui/material';

/** The content layout: 1 column below 801 px, 2 columns from 801 px, 3 columns from 1600 px. */
export const TWO_COLUMNS_FROM = 801;
export const THREE_COLUMNS_FROM = 1600;

export const ResponsiveColumns = ({ children, sx, ...rest }: BoxProps) => (
  <Box
    sx={{
      display: 'grid',
      gap: 2,
      alignItems: 'start',
      gridTemplateColumns: 'minmax(0, 1fr)',
      [`@media (min-width: ${TWO_COLUMNS_FROM}px)`]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
      [`@media (min-width: ${THREE_COLUMNS_FROM}px)`]: { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
      ...sx,
    }}
    {...rest}
  >
    {children}
  </Box>
);
