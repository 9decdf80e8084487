import { StrictMode, Suspense, lazy, startTransition, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createAuthProvider, type TestbedAuthProvider } from './authProvider';
import { createHttpClient, type HttpClient, tokenStore } from './httpClient';
import { prefetchHome } from './pages/home/homeLists';
import { createPrefetchingClient } from './prefetch';
import { loadSettings, type Settings } from './settings';

// Two bundles, to keep the first load small. Without a token, the logged-out screens (login, registration,
// password, email verification): plain MUI and react-router. With a token, or as soon as one
// is stored (login), the console: react-admin, resources, realtime. Both share one session
// (http client and authProvider), so the console starts with the user login just loaded.
const loadConsole = () => import('./App');
const loadLoggedOut = () => import('./pages/auth/LoggedOutApp');
const Console = lazy(async () => ({ default: (await loadConsole()).App }));
const LoggedOut = lazy(async () => ({ default: (await loadLoggedOut()).LoggedOutApp }));

const loggedIn = Boolean(tokenStore.get());
// The first screen's chunks load with the settings, and the first render waits for both: no
// Suspense fallback on the way (React reveals suspended content in 300 ms steps).
let consoleModule: Awaited<ReturnType<typeof loadConsole>> | undefined;
let loggedOutModule: Awaited<ReturnType<typeof loadLoggedOut>> | undefined;
const firstScreen = loggedIn
  ? // The console's UI chunk starts loading beside App's, not once App has run (a level less in
    // the chain a phone waits through; preloadConsole then finds it loaded or on its way).
    Promise.all([loadConsole(), import('./ConsoleUI')]).then(async ([module]) => {
      await module.preloadConsole();
      consoleModule = module;
    })
  : loadLoggedOut().then((module) => {
      loggedOutModule = module;
    });

/** One per page load: the http client and the authProvider both bundles share. */
type Session = { http: HttpClient; authProvider: TestbedAuthProvider };

const Root = ({ settings, session }: { settings: Settings; session: Session }) => {
  const [consoleShown, setConsoleShown] = useState(loggedIn);
  // Once the console is shown it stays (logging out there shows its own login page).
  useEffect(() => {
    if (consoleShown) return;
    return tokenStore.subscribe((token) => {
      if (token) setConsoleShown(true);
    });
  }, [consoleShown]);
  return (
    <Suspense fallback={null}>
      {consoleShown ? (
        consoleModule ? (
          <consoleModule.App settings={settings} session={session} />
        ) : (
          <Console settings={settings} session={session} />
        )
      ) : loggedOutModule ? (
        <loggedOutModule.LoggedOutApp settings={settings} authProvider={session.authProvider} />
      ) : (
        <LoggedOut settings={settings} authProvider={session.authProvider} />
      )}
    </Suspense>
  );
};

// Settings first (GET /api/settings, defaults if unavailable; they say where the API is), then
// the session. With a stored token, GET /user goes out at once, while the console's chunks are
// still loading, instead of once the console has rendered (SessionGate finds it loaded or in
// flight); on the home, its cards' GETs go out beside it, and the cards find them on the way
// (src/prefetch.ts). Then the first screen renders.
const sessionReady = loadSettings().then((settings) => {
  const { http, prefetch } = createPrefetchingClient(createHttpClient({ baseUrl: settings.apiUrl }));
  const session: Session = { http, authProvider: createAuthProvider(http, { avatarUrl: settings.avatarUrl }) };
  if (loggedIn) {
    void session.authProvider.loadUser();
    if (window.location.pathname === '/') prefetchHome(prefetch);
  }
  return { settings, session };
});
void Promise.all([sessionReady, firstScreen.catch(() => undefined)]).then(([{ settings, session }]) => {
  document.title = settings.appName;
  const root = createRoot(document.getElementById('root')!);
  // As a transition, React renders the first screen in slices of a few milliseconds instead of
  // one long task: on a phone the console's first render held the page for 400–600 ms at a
  // time (Lighthouse's blocking time, docs/benchmarks.md). Nothing is on screen before it.
  startTransition(() => {
    root.render(
      <StrictMode>
        <Root settings={settings} session={session} />
      </StrictMode>,
    );
  });
});
