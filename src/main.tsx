import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadSettings } from './settings';

// Settings first (GET /api/settings, defaults if unavailable), then the console.
void loadSettings().then((settings) => {
  document.title = settings.appName;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App settings={settings} />
    </StrictMode>,
  );
});
