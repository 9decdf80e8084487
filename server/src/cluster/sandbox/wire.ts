import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiVersionOf, type ResourceType } from './resources.js';
import { ApiError, badRequest, unsupportedMediaType } from './status.js';
import { decodeProtobuf, PROTOBUF } from './protobuf.js';
import type { KubeObject } from './store.js';

// What goes over the wire: JSON answers, and JSON request bodies (protobuf ones, protobuf.ts,
// for what kubectl's typed create subcommands send), as kube-apiserver reads them.

const MAX_BODY = 3 * 1024 * 1024;

export function send(res: ServerResponse, code: number, body: unknown, headers: Record<string, string | string[]> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private', ...headers });
  res.end(text);
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  const type = (req.headers['content-type'] ?? 'application/json').split(';')[0].trim().toLowerCase();
  // kubectl's typed create subcommands (protobuf.ts); PATCH bodies stay JSON
  if (type === PROTOBUF && bytes.length && req.method !== 'PATCH') return decodeProtobuf(bytes);
  const text = bytes.toString('utf8');
  if (!text.trim()) return undefined;
  if (!type.endsWith('json')) throw unsupportedMediaType(type);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`the body of the request could not be decoded: ${(error as Error).message}`);
  }
}

export async function objectBody(req: IncomingMessage, type: ResourceType): Promise<KubeObject> {
  const body = await readBody(req);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the request body must be a JSON object');
  const object = body as KubeObject;
  if (object.kind && object.kind !== type.kind) throw badRequest(`the kind of the provided object (${object.kind}) does not match the resource (${type.kind})`);
  if (object.apiVersion && object.apiVersion !== apiVersionOf(type)) throw badRequest(`the API version in the data (${object.apiVersion}) does not match the expected API version (${apiVersionOf(type)})`);
  object.kind = type.kind;
  object.apiVersion = apiVersionOf(type);
  object.metadata = typeof object.metadata === 'object' && object.metadata ? object.metadata : ({} as KubeObject['metadata']);
  return object;
}
