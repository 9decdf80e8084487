import { HttpError } from 'react-admin';
import { acceptLanguage } from './i18n/locale';
import type { LaravelErrors } from './types';

/** Local storage key of the bearer token (the name the original console used). */
export const TOKEN_KEY = 'authentication_token';

type TokenListener = (token: string | null) => void;
const tokenListeners = new Set<TokenListener>();

const readToken = (): string | null => {
  try {
    return window.localStorage.getItem(TOKEN_KEY) || null;
  } catch {
    return null;
  }
};

/** The stored bearer token, with change notifications (this tab and other tabs). */
export const tokenStore = {
  get: readToken,
  set(token: string): void {
    window.localStorage.setItem(TOKEN_KEY, token);
    tokenListeners.forEach((listener) => listener(token));
  },
  clear(): void {
    const had = readToken() !== null;
    window.localStorage.removeItem(TOKEN_KEY);
    if (had) tokenListeners.forEach((listener) => listener(null));
  },
  subscribe(listener: TokenListener): () => void {
    tokenListeners.add(listener);
    return () => tokenListeners.delete(listener);
  },
};

if (typeof window !== 'undefined') {
  // Logging in or out in another tab changes the session here too.
  window.addEventListener('storage', (event) => {
    if (event.key === TOKEN_KEY || event.key === null) {
      const token = readToken();
      tokenListeners.forEach((listener) => listener(token));
    }
  });
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, QueryValue | QueryValue[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The bearer token to send. Omitted: the stored one (the session). null: none. A string: that
   * one, for a screen that holds a token of its own (a sign-in code just exchanged, an
   * invitation joined with a fresh login); its 401 leaves the stored session alone.
   */
  token?: string | null;
  /** fetch's credentials mode (default 'same-origin': this origin's cookies go with the request). */
  credentials?: RequestCredentials;
  /**
   * 'blob': a successful answer is read as a Blob (files: CSV exports, node images); failures
   * are still read as JSON for their message. Default 'json'.
   */
  responseType?: 'json' | 'blob';
  /**
   * With responseType 'blob': called with each piece of a successful answer's body as it
   * arrives, before the whole is read (a long download's progress: CSV exports).
   */
  onChunk?: (chunk: Uint8Array) => void;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (the text when it is not JSON; a Blob with responseType 'blob'). */
  json: T;
}

export type HttpClient = <T = unknown>(path: string, options?: RequestOptions) => Promise<HttpResponse<T>>;

/** Message key used when the server cannot be reached at all. */
export const NETWORK_ERROR = 'app.error.network';
/** Message key used when the server answered an error without a message. */
export const HTTP_ERROR = 'ra.notification.http_error';

/**
 * Laravel validation errors `{field: ["a", "b"]}` → `{field: "a b"}`, the shape react-admin
 * forms show under the matching fields.
 */
export const joinFieldErrors = (errors: unknown): Record<string, string> | undefined => {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const joined: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors as LaravelErrors)) {
    if (Array.isArray(messages)) joined[field] = messages.map(String).join(' ');
    else if (messages != null) joined[field] = String(messages);
  }
  return joined;
};

const buildUrl = (baseUrl: string, path: string, query?: RequestOptions['query']): string => {
  const url = /^https?:\/\//.test(path)
    ? new URL(path)
    : new URL(`${baseUrl}${path}`, window.location.origin);
  if (query) {
    for (const [key, value] of Object.entries(query)) {
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) {
        if (item === undefined || item === null || item === '') continue;
        url.searchParams.append(key, String(item));
      }
    }
  }
  return url.toString();
};

export interface HttpClientOptions {
  /** Prefix of every path (settings.apiUrl); '' = same origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

/**
 * fetch wrapper for the Laravel-style API: bearer token, JSON in and out, react-admin
 * `HttpError(message, status, body)` on any non-2xx answer, a 401 clears the session.
 */
export const createHttpClient = ({ baseUrl = '', fetch: fetchImpl }: HttpClientOptions = {}): HttpClient => {
  const base = baseUrl.replace(/\/+$/, '');
  return async <T = unknown>(path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> => {
    // Accept-Language: the server answers its messages (and the user's mails, at registration)
    // in the console's language.
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': acceptLanguage(), ...options.headers };
    // The stored token, unless the caller names its own or none (login checks a new token
    // first). `token` is the stored one sent, the only one whose 401 ends the session.
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const token = headers.Authorization || options.token === null ? null : tokenStore.get();
    if (token) headers.Authorization = `Bearer ${token}`;
    const init: RequestInit = { method: options.method ?? 'GET', headers, signal: options.signal };
    if (options.credentials) init.credentials = options.credentials;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }

    let response: Response;
    try {
      response = await (fetchImpl ?? fetch)(buildUrl(base, path, options.query), init);
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new HttpError(NETWORK_ERROR, 0, { message: NETWORK_ERROR });
    }

    const ok = response.status >= 200 && response.status < 300;
    if (ok && options.responseType === 'blob') {
      const onChunk = options.onChunk;
      const blob = await bodyOf(() => (onChunk && response.body ? readInPieces(response, onChunk) : response.blob()));
      return { status: response.status, headers: response.headers, json: blob as T };
    }

    const text = await bodyOf(() => response.text());
    let json: unknown = undefined;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
    }

    if (!ok) {
      // Only the token this request carried is cleared: a late 401 must not end a newer session.
      if (response.status === 401 && token && tokenStore.get() === token) tokenStore.clear();
      const body: { message?: unknown; errors?: unknown } = typeof json === 'object' && json !== null ? { ...json } : { message: undefined };
      const errors = joinFieldErrors(body.errors);
      if (errors) body.errors = errors;
      const message =
        (typeof body.message === 'string' && body.message) ||
        (errors && Object.values(errors)[0]) ||
        response.statusText ||
        HTTP_ERROR;
      throw new HttpError(message, response.status, body);
    }

    return { status: response.status, headers: response.headers, json: json as T };
  };
};

/**
 * Reads an answer's body. A body cut short (the connection dropped mid-download) is a network
 * failure, as no answer at all is; an abort stays an abort (the caller's signal, or the page
 * being left while the body was still arriving).
 */
async function bodyOf<B>(read: () => Promise<B>): Promise<B> {
  try {
    return await read();
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new HttpError(NETWORK_ERROR, 0, { message: NETWORK_ERROR });
  }
}

/** A successful answer's body as a Blob, read piece by piece, each piece handed to `onChunk` as it arrives. */
async function readInPieces(response: Response, onChunk: (chunk: Uint8Array) => void): Promise<Blob> {
  const reader = response.body!.getReader();
  const pieces: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    onChunk(value);
  }
  return new Blob(pieces as BlobPart[], { type: response.headers.get('Content-Type') ?? '' });
}

/** The message of any error thrown by the client (or anything else), for display. */
export const errorMessage = (error: unknown, fallback = HTTP_ERROR): string => {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) {
    return error.message;
  }
  return fallback;
};

/** Field errors of a 422 answer, ready for a react-admin form's onSubmit return value. */
export const fieldErrors = (error: unknown): Record<string, string> | undefined => {
  if (error instanceof HttpError || (error && typeof error === 'object' && 'body' in error)) {
    const body = (error as HttpError).body;
    const errors = body?.errors;
    if (errors && typeof errors === 'object' && Object.keys(errors).length > 0) return errors;
  }
  return undefined;
};

/**
 * The server's message of a failed call, or `fallback` (a translation key) when the server
 * said nothing useful (e.g. 'Error creating team'). Network failures keep their message.
 */
export const serverMessage = (error: unknown, fallback: string): string => {
  const body = (error as HttpError | undefined)?.body;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return fallback;
};
