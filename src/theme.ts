import { defaultTheme, type RaThemeOptions } from 'react-admin';

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Deep merge of plain objects (functions and arrays of `extra` replace those of `base`). */
const merge = (base: Plain, extra: Plain): Plain => {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    out[key] = isPlain(value) && isPlain(out[key]) ? merge(out[key] as Plain, value) : value;
  }
  return out;
};

/**
 * A calm, professional light theme: deep teal primary, slate text, white cards on a light grey
 * background, outlined inputs. The sidebar is 280 px wide (a product constant).
 */
export const SIDEBAR_WIDTH = 280;

export const theme: RaThemeOptions = merge(defaultTheme as Plain, {
  palette: {
    mode: 'light',
    primary: { main: '#0b6e79', light: '#3d9aa4', dark: '#064c54', contrastText: '#ffffff' },
    secondary: { main: '#33415c', contrastText: '#ffffff' },
    success: { main: '#2e7d32' },
    error: { main: '#c62828' },
    // Darker than MUI's defaults: chips and small text in these colours on white reach WCAG AA's
    // 4.5:1 (MUI's info #0288d1 is 3.85:1, the earlier warning #b26a00 4.2:1).
    warning: { main: '#9a5b00' },
    info: { main: '#0765a3' },
    background: { default: '#f4f6f8', paper: '#ffffff' },
    text: { primary: '#1f2933', secondary: '#52606d' },
    divider: 'rgba(31, 41, 51, 0.12)',
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h4: { fontWeight: 600, letterSpacing: '-0.01em' },
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  sidebar: { width: SIDEBAR_WIDTH, closedWidth: 55 },
  components: {
    MuiTextField: { defaultProps: { variant: 'outlined' } },
    MuiFormControl: { defaultProps: { variant: 'outlined' } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 10 } } },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
    },
    // A keyboard user sees where they are: every button, menu item and list row that has the
    // focus from the keyboard gets a solid outline (MUI's own sign is a faint ripple), white on
    // the dark app bar.
    MuiButtonBase: {
      styleOverrides: {
        root: { '&.Mui-focusVisible': { outline: '2px solid #0b6e79', outlineOffset: 2 } },
      },
    },
    MuiLink: {
      styleOverrides: {
        root: { '&:focus-visible': { outline: '2px solid #0b6e79', outlineOffset: 2 } },
      },
    },
    MuiAppBar: {
      styleOverrides: {
        colorSecondary: { backgroundColor: '#0f2a33', color: '#ffffff', '& .Mui-focusVisible': { outlineColor: '#ffffff' } },
      },
    },
    MuiChip: { styleOverrides: { root: { fontWeight: 500 } } },
    // react-admin names its row checkboxes with `aria-label` on MUI's Checkbox, which MUI 7 puts
    // on the wrapping span (not allowed there) and not on the input (left without a name): move
    // such a label to the input. A checkbox that names its input itself keeps its own.
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: { 'aria-label': undefined },
          // A default `slotProps.input` takes the place of a checkbox's `inputProps`: keep them.
          input: (ownerState: { 'aria-label'?: string; inputProps?: object }) => ({
            'aria-label': ownerState['aria-label'],
            ...ownerState.inputProps,
          }),
        },
      },
    },
    // On phones react-admin paints a list's toolbar (filters, Create, Export) white, for lists
    // laid out on the page itself; ours sit in cards on the grey page, where a white strip
    // above the card looked like a broken card. Keep the page's background there.
    RaListToolbar: { styleOverrides: { root: { '@media (max-width: 599.95px)': { backgroundColor: 'transparent' } } } },
    // On phones the list's actions (Export…) sit on a line of their own above the search; MUI's
    // Toolbar gives that line 56 px and react-admin aligns the buttons to its bottom, which left
    // an empty band between the folded Filters panel and Export. The line is as tall as its buttons.
    RaTopToolbar: { styleOverrides: { root: { '@media (max-width: 599.95px)': { backgroundColor: 'transparent', minHeight: 0, paddingTop: 4, paddingBottom: 4 } } } },
    RaMenuItemLink: {
      styleOverrides: {
        root: {
          borderLeft: '3px solid transparent',
          '&.RaMenuItemLink-active': {
            borderLeft: '3px solid #0b6e79',
            backgroundColor: 'rgba(11, 110, 121, 0.08)',
            fontWeight: 600,
          },
        },
      },
    },
  },
} satisfies RaThemeOptions as Plain) as RaThemeOptions;
