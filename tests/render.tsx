import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryStore } from 'react-admin';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { ConsoleApp, createProviders } from '../src/App';
import { tokenStore } from '../src/httpClient';
import { defaultSettings, type Settings } from '../src/settings';
import { preloadLazyComponents } from '../src/utils/lazyNamed';
import { SESSION_TOKEN } from './mocks/fixtures';

// The console's screens are lazy chunks (code splitting): load them all with this module, as the
// static imports of the unsplit console did, so no test's first render waits for them.
await preloadLazyComponents();

let currentPath = '';
const LocationSpy = () => {
  const location = useLocation();
  currentPath = `${location.pathname}${location.search}`;
  return null;
};

export interface RenderAppOptions {
  path?: string;
  /** Start logged in with the mock session token. */
  loggedIn?: boolean;
  settings?: Partial<Settings>;
}

/** Renders the whole console at `path`, against the msw handlers. */
export const renderApp = ({ path = '/', loggedIn = false, settings = {} }: RenderAppOptions = {}) => {
  if (loggedIn) tokenStore.set(SESSION_TOKEN);
  const finalSettings = { ...defaultSettings(), ...settings };
  const providers = createProviders(finalSettings);
  // No pause between simulated keystrokes (delay: null): typing a field is then one task rather
  // than a timer per character, which is most of a form test's time on a loaded machine.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <ConsoleApp settings={finalSettings} providers={providers} store={memoryStore()} />
      <LocationSpy />
    </MemoryRouter>,
  );
  return { ...view, user, providers, path: () => currentPath };
};
