// Why the console just logged someone out (the server ended their session or disabled their
// account), kept across the switch to the login page, which says it once. sessionStorage: it
// belongs to this tab, and a reload of the login page later does not repeat it.

const KEY = 'testbed.loggedOutNotice';

/** Remembers a translation key for the login page to show. */
export function rememberLoggedOutNotice(messageKey: string): void {
  try {
    sessionStorage.setItem(KEY, messageKey);
  } catch {
    // Storage refused (private mode quotas): the login page then shows no reason.
  }
}

/** The remembered key, once: reading it forgets it. */
export function takeLoggedOutNotice(): string | null {
  try {
    const key = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return key;
  } catch {
    return null;
  }
}
