import type { RawData } from 'ws';

// Reading what a client sends: every frame is checked for size, kind and shape before the
// server looks at it, so malformed input gets a Pusher error and nothing else.

/** A client message that has the Pusher shape: an event name and its data as an object. */
export interface ClientMessage {
  event: string;
  /** `data` as an object: parsed when it came as a JSON string (as pusher-js sends it), else {}. */
  payload: Record<string, unknown>;
}

export type FrameVerdict =
  | { ok: true; message: ClientMessage }
  /** `close`: the connection is ended with this Pusher code; otherwise only a pusher:error is sent. */
  | { ok: false; code: number | null; message: string; close: boolean };

export function toBuffer(raw: RawData): Buffer {
  if (Array.isArray(raw)) return Buffer.concat(raw);
  return Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
}

/** Checks one frame: size, text, JSON, `{event: string, data?}`. */
export function readFrame(raw: RawData, isBinary: boolean, maxBytes: number, tooLargeCode: number): FrameVerdict {
  const bytes = toBuffer(raw);
  if (bytes.length > maxBytes) return { ok: false, code: tooLargeCode, message: `Messages are limited to ${maxBytes} bytes.`, close: true };
  if (isBinary) return { ok: false, code: null, message: 'Binary messages are not accepted.', close: false };
  let message: unknown;
  try {
    message = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { ok: false, code: null, message: 'Invalid message format.', close: false };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { ok: false, code: null, message: 'Invalid message format.', close: false };
  }
  const { event, data } = message as { event?: unknown; data?: unknown };
  if (typeof event !== 'string') return { ok: false, code: null, message: 'Invalid message format.', close: false };
  let parsed = data;
  if (typeof parsed === 'string') {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      // A plain string payload: no fields to read.
    }
  }
  const payload = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { ok: true, message: { event, payload } };
}
