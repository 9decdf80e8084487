import { type HttpClient, type HttpResponse, type RequestOptions, tokenStore } from './httpClient';

// Answers started before the screen that reads them has rendered. With a stored token, the home
// needs GET /user and its cards' lists; the cards only ask once the session is loaded and the
// console has rendered, one round trip after /user. main.tsx starts the cards' GETs beside
// /user instead, and the first component that asks for the same GET (same path and query, the
// same stored token) gets that answer. Each answer is handed out once and only while fresh, so
// a later visit to the home asks again. A failed one is asked again by its reader: it may
// predate what the reader needed (the API refuses a person still in the onboarding wizard,
// whose home comes once the wizard is done).

/** How long a started answer may wait for its reader: the first render on a slow phone. */
export const PREFETCH_MAX_AGE_MS = 20_000;

type Query = RequestOptions['query'];

interface Started {
  token: string | null;
  at: number;
  answer: Promise<HttpResponse>;
}

/**
 * The same GET, whatever the order of its query parameters. The names are compared as plain
 * strings: `localeCompare` would load the browser's collation data on the first call, which
 * on a phone held the home's requests back by tens of milliseconds before they went out.
 */
const keyOf = (path: string, query?: Query): string =>
  JSON.stringify([path, Object.entries(query ?? {}).filter(([, value]) => value !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

export interface PrefetchingClient {
  /** The http client to use everywhere: a GET that was started ahead is answered from there. */
  http: HttpClient;
  /** Starts a GET with the stored token now; nobody sees its failure (its reader asks again). */
  prefetch(path: string, query?: Query): void;
}

export const createPrefetchingClient = (http: HttpClient, now: () => number = Date.now): PrefetchingClient => {
  const started = new Map<string, Started>();
  const client = <T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> => {
    // Only a plain GET with the session's token can be the one started ahead.
    const plain = (options.method ?? 'GET') === 'GET' && options.token === undefined && !options.responseType && !options.headers;
    if (plain && started.size > 0) {
      const key = keyOf(path, options.query);
      const entry = started.get(key);
      if (entry) {
        started.delete(key);
        if (entry.token === tokenStore.get() && now() - entry.at <= PREFETCH_MAX_AGE_MS) {
          return entry.answer.then(
            (response) => response as HttpResponse<T>,
            () => http<T>(path, options),
          );
        }
      }
    }
    return http<T>(path, options);
  };
  return {
    http: client,
    prefetch(path, query) {
      const answer = http(path, { query });
      // Unread (the user was not onboarded; the token was refused, and /user's own answer ends
      // the session), a failure must not reach the console as an unhandled rejection.
      answer.catch(() => undefined);
      started.set(keyOf(path, query), { token: tokenStore.get(), at: now(), answer });
    },
  };
};
