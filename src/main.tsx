import { StrictMode, Suspense, lazy, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createAuthProvider } from './authProvider';
import { createHttpClient, tokenStore } from './httpClient';
import { loadSettings, type Settings } from './settings';

// Two bundles (issue 14). Without a token, the logged-out screens (login, registration,
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
  ? loadConsole().then(async (module) => {
      await module.preloadConsole();
      consoleModule = module;
    })
  : loadLoggedOut().then((module) => {
      loggedOutModule = module;
    });

const Root = ({ settings }: { settings: Settings }) => {
  const [session] = useState(() => {
    const http = createHttpClient({ baseUrl: settings.apiUrl });
    return { http, authProvider: createAuthProvider(http) };
  });
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

// Settings first (GET /api/settings, defaults if unavailable), then the console.
void Promise.all([loadSettings(), firstScreen.catch(() => undefined)]).then(([settings]) => {
  document.title = settings.appName;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root settings={settings} />
    </StrictMode>,
  );
});
