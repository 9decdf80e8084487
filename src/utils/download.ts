import { NETWORK_ERROR, tokenStore } from '../httpClient';

/**
 * Saves a Blob as a file named `filename`: an object URL clicked through a temporary
 * <a download> (no navigation; works for what the API returned as JSON or fetched binary).
 */
export const saveBlob = (blob: Blob, filename: string): void => {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  try {
    anchor.click();
  } finally {
    anchor.remove();
    // Revoked after the browser has started the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
};

/** Saves `text` as a file named `filename`. */
export const saveTextFile = (text: string, filename: string, type = 'application/yaml'): void =>
  saveBlob(new Blob([text], { type }), filename);

/** The file name of a `Content-Disposition: attachment; filename="…"` header, if any. */
export const attachmentFilename = (header: string | null): string | null => /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? null;

/**
 * GETs `url` with the session's bearer token and saves the answer (any type: not through the
 * JSON client) under the server's Content-Disposition name, else `fallbackName`. Failures throw
 * an Error with the server's message, or `fallbackMessage` when it sent none (a translation key).
 */
export const downloadWithToken = async (
  url: string,
  { accept, fallbackName, fallbackMessage }: { accept: string; fallbackName: string; fallbackMessage: string },
): Promise<void> => {
  const token = tokenStore.get();
  const headers: Record<string, string> = { Accept: `${accept}, application/json` };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(url, { headers });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  if (!response.ok) {
    // As the JSON client does: only the token this request carried ends the session.
    if (response.status === 401 && token && tokenStore.get() === token) tokenStore.clear();
    let message = '';
    try {
      const body = await response.json();
      if (body && typeof body.message === 'string') message = body.message;
    } catch {
      // not JSON: the fallback message
    }
    throw new Error(message || fallbackMessage);
  }
  saveBlob(await response.blob(), attachmentFilename(response.headers.get('Content-Disposition')) ?? fallbackName);
};
