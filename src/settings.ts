import { createContext, useContext } from 'react';

/** Runtime settings, read from `GET /api/settings` at start (docs/api-contract.md). */
export interface RealtimeSettings {
  key: string;
  host: string;
  port: number;
  forceTLS: boolean;
}

export interface Settings {
  appName: string;
  /** Prefix of every API path; '' = the console's own origin. */
  apiUrl: string;
  /** The cluster is the built-in sandbox double: labelled as such in the console. */
  sandbox: boolean;
  cluster?: string;
  realtime: RealtimeSettings;
  /** The generic (machine-first) installer's script and USB image; absent from older servers. */
  nodeInstall?: { scriptUrl: string; imageUrl: string };
  /** Institutional sign-in (OpenID Connect) providers: a "Sign in with {name}" button each. */
  oidcProviders?: { id: string; name: string }[];
  /** An avatar service's address with `{hash}` and `{size}`; absent or null: initials only. */
  avatarUrl?: string | null;
}

export const defaultSettings = (): Settings => ({
  appName: 'Testbed Console',
  apiUrl: '',
  sandbox: false,
  realtime: {
    key: 'testbed',
    host: typeof location !== 'undefined' ? location.hostname : 'localhost',
    port: 8080,
    forceTLS: false,
  },
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Merges what the server sent over the defaults, ignoring values of the wrong type. */
export const mergeSettings = (raw: unknown): Settings => {
  const defaults = defaultSettings();
  if (!isObject(raw)) return defaults;
  const realtime = isObject(raw.realtime) ? raw.realtime : {};
  const nodeInstall = isObject(raw.nodeInstall) ? raw.nodeInstall : {};
  return {
    appName: typeof raw.appName === 'string' && raw.appName ? raw.appName : defaults.appName,
    apiUrl: typeof raw.apiUrl === 'string' ? raw.apiUrl.replace(/\/+$/, '') : defaults.apiUrl,
    sandbox: typeof raw.sandbox === 'boolean' ? raw.sandbox : defaults.sandbox,
    cluster: typeof raw.cluster === 'string' ? raw.cluster : undefined,
    realtime: {
      key: typeof realtime.key === 'string' ? realtime.key : defaults.realtime.key,
      host: typeof realtime.host === 'string' && realtime.host ? realtime.host : defaults.realtime.host,
      port: typeof realtime.port === 'number' ? realtime.port : defaults.realtime.port,
      forceTLS: typeof realtime.forceTLS === 'boolean' ? realtime.forceTLS : defaults.realtime.forceTLS,
    },
    nodeInstall:
      typeof nodeInstall.scriptUrl === 'string' && typeof nodeInstall.imageUrl === 'string'
        ? { scriptUrl: nodeInstall.scriptUrl, imageUrl: nodeInstall.imageUrl }
        : undefined,
    oidcProviders: Array.isArray(raw.oidcProviders)
      ? raw.oidcProviders.filter(
          (provider): provider is { id: string; name: string } => isObject(provider) && typeof provider.id === 'string' && typeof provider.name === 'string',
        )
      : [],
    avatarUrl: typeof raw.avatarUrl === 'string' && raw.avatarUrl.startsWith('https://') ? raw.avatarUrl : null,
  };
};

/**
 * Loads the settings from the console's own origin. Any failure (another Laravel-style server
 * without this endpoint, network error) falls back to the defaults so the console still starts.
 * index.html has already asked for them (a preload): this fetch gets that answer as long as its
 * mode and credentials stay the defaults, which the preload's `crossorigin="anonymous"` matches.
 */
export const loadSettings = async (fetchImpl: typeof fetch = fetch): Promise<Settings> => {
  try {
    const url = new URL('/api/settings', window.location.origin).toString();
    const response = await fetchImpl(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) return defaultSettings();
    return mergeSettings(await response.json());
  } catch {
    return defaultSettings();
  }
};

export const SettingsContext = createContext<Settings>(defaultSettings());

export const useSettings = (): Settings => useContext(SettingsContext);
