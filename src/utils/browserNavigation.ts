/**
 * Full page loads (the console starts again with a new session or membership), behind an object
 * so that tests can watch them (jsdom does not navigate).
 */
export const browserNavigation = {
  assign: (url: string) => window.location.assign(url),
  replace: (url: string) => window.location.replace(url),
  reload: () => window.location.reload(),
};
