import { RESOURCES } from './resources.js';
import { schemasOf, type Schema } from './openapi.js';

// The OpenAPI v2 document at /openapi/v2, the same schemas as the v3 documents (openapi.ts) in
// one document. kubectl reads it, as protobuf, to check the objects of a `kind: List` file
// client-side before it creates them (single objects go by the v3 documents and the server's
// field validation). The protobuf is gnostic's openapi_v2.Document, the messages kubectl
// decodes; only what schemas need is written: definitions, each with its type, format,
// reference, items, properties, additional properties and group-version-kind extension.

/** What kubectl asks for, and (the "@" is not valid in a media type it parses) what it is sent as. */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

const V2_REF = '#/definitions/';

let definitions: Record<string, Schema> | undefined;
const definitionsOnce = () => (definitions ??= v2Definitions());

function v2Definitions() {
  const schemas = schemasOf(RESOURCES, V2_REF);
  // v2 has no int-or-string or preserve-unknown-fields marks: such values are left untyped,
  // which kubectl's validation reads as "anything".
  const untyped = (schema: Schema): Schema => {
    if (schema['x-kubernetes-int-or-string'] || schema['x-kubernetes-preserve-unknown-fields']) return {};
    const out: Schema = { ...schema };
    if (out.items) out.items = untyped(out.items as Schema);
    if (out.additionalProperties) out.additionalProperties = untyped(out.additionalProperties as Schema);
    if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties as Record<string, Schema>).map(([k, v]) => [k, untyped(v)]));
    return out;
  };
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, untyped(schema)]));
}

/** The document as JSON, for people and tools that ask for it. */
export function openApiV2Json() {
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'sandbox' }, paths: {}, definitions: definitionsOnce() };
}

// ---- protobuf writing (wire types: 0 varint, 2 length-delimited)

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}
const message = (field: number, payload: Buffer) => Buffer.concat([Buffer.from([...varint((field << 3) | 2), ...varint(payload.length)]), payload]);
const text = (field: number, value: string) => message(field, Buffer.from(value, 'utf8'));

/** gnostic's Schema message. */
function schemaMessage(schema: Schema): Buffer {
  const parts: Buffer[] = [];
  if (typeof schema.$ref === 'string') parts.push(text(1, schema.$ref));
  if (typeof schema.format === 'string') parts.push(text(2, schema.format));
  if (schema.additionalProperties) parts.push(message(21, message(1, schemaMessage(schema.additionalProperties as Schema))));
  if (typeof schema.type === 'string') parts.push(message(22, text(1, schema.type)));
  if (schema.items) parts.push(message(23, message(1, schemaMessage(schema.items as Schema))));
  if (schema.properties) parts.push(message(25, namedSchemas(schema.properties as Record<string, Schema>)));
  const gvk = schema['x-kubernetes-group-version-kind'] as { group: string; version: string; kind: string }[] | undefined;
  if (gvk) {
    const yaml = gvk.map((g) => `- group: ${JSON.stringify(g.group)}\n  kind: ${g.kind}\n  version: ${g.version}\n`).join('');
    parts.push(message(31, Buffer.concat([text(1, 'x-kubernetes-group-version-kind'), message(2, text(2, yaml))])));
  }
  return Buffer.concat(parts);
}

/** Definitions and Properties: repeated NamedSchema { name = 1; value = 2 } in field 1. */
const namedSchemas = (schemas: Record<string, Schema>) =>
  Buffer.concat(Object.entries(schemas).map(([name, schema]) => message(1, Buffer.concat([text(1, name), message(2, schemaMessage(schema))]))));

let protobuf: Buffer | undefined;
/** The document as gnostic's openapi_v2.Document: swagger = 1, info = 2, definitions = 9. */
export function openApiV2Protobuf(): Buffer {
  protobuf ??= Buffer.concat([text(1, '2.0'), message(2, Buffer.concat([text(1, 'Kubernetes'), text(2, 'sandbox')])), message(9, namedSchemas(definitionsOnce()))]);
  return protobuf;
}
