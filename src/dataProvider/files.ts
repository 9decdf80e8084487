import type { HttpClient, QueryValue } from '../httpClient';
import type { DownloadedFile } from '../types';

/** The file name of a `Content-Disposition: attachment; filename="…"` header, if any. */
export const attachmentFilename = (header: string | null): string | null => /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? null;

/**
 * A counter of the records of a CSV as its bytes arrive: line ends outside quoted cells (a
 * cell may hold line breaks), less the header line. Bytes, not text: in UTF-8 a quote or a
 * line feed byte is always that character, so a piece may end in the middle of a character.
 */
export const csvRowCounter = () => {
  let quoted = false;
  let lines = 0;
  return {
    add(chunk: Uint8Array): number {
      for (const byte of chunk) {
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) lines += 1;
      }
      return Math.max(0, lines - 1);
    },
  };
};

/**
 * GETs a file (any type, not JSON) with the session's token, through the same client as every
 * other call: a failure is the client's HttpError with the server's message, a 401 ends the session.
 */
export const fetchFile = async (
  http: HttpClient,
  path: string,
  { accept, query, onChunk }: { accept: string; query?: Record<string, QueryValue | QueryValue[]>; onChunk?: (chunk: Uint8Array) => void },
): Promise<DownloadedFile> => {
  const { json: blob, headers } = await http<Blob>(path, { query, headers: { Accept: `${accept}, application/json` }, responseType: 'blob', onChunk });
  return { blob, filename: attachmentFilename(headers.get('Content-Disposition')) };
};

/** encodeURIComponent of an id or name, for a path segment. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));
