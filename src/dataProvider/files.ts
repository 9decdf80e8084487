import type { HttpClient, QueryValue } from '../httpClient';
import type { DownloadedFile } from '../types';

/** The file name of a `Content-Disposition: attachment; filename="…"` header, if any. */
export const attachmentFilename = (header: string | null): string | null => /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? null;

/**
 * GETs a file (any type, not JSON) with the session's token, through the same client as every
 * other call: a failure is the client's HttpError with the server's message, a 401 ends the session.
 */
export const fetchFile = async (
  http: HttpClient,
  path: string,
  { accept, query }: { accept: string; query?: Record<string, QueryValue | QueryValue[]> },
): Promise<DownloadedFile> => {
  const { json: blob, headers } = await http<Blob>(path, { query, headers: { Accept: `${accept}, application/json` }, responseType: 'blob' });
  return { blob, filename: attachmentFilename(headers.get('Content-Disposition')) };
};

/** encodeURIComponent of an id or name, for a path segment. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));
