import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type Serialize = (data: unknown) => string;

/**
 * Answers are written by a serialiser compiled once per route from the route's zod answer
 * schema (through its JSON Schema, by fast-json-stringify, Fastify's own serialiser), instead
 * of zod checking every answer and JSON.stringify writing it: on the admin users list zod's
 * check alone was an eighth of the server's CPU. The compiled serialiser writes only the
 * properties the schema names, in its order, so nothing outside the contract can leak out.
 *
 * What it does not do is check: a value of the wrong type would be written as the schema's type
 * says. So with `checked` (CHECK_ANSWERS=on, which every test runs with) each answer is also
 * checked by zod, and the two answers must be equal, else the request fails as an answer
 * that breaks its schema does. Schemas that JSON Schema cannot say (a transform) keep zod's
 * serialiser.
 */
export function answerSerializerCompiler({ checked }: { checked: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    // Compiled when the route first answers: a server keeps no serialiser (nor its JSON Schema)
    // for the many routes an idle or a small testbed never calls.
    let serialize: Serialize | undefined;
    return (data) => (serialize ??= answerSerializer(route, checked))(data);
  };
}

function answerSerializer(route: Parameters<FastifySerializerCompiler<unknown>>[0], checked: boolean): Serialize {
  const compiled = compileAnswerSchema(route.schema);
  if (compiled && !checked) return compiled;
  const zodSerialize = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]) as Serialize;
  if (!compiled) return zodSerialize;
  return (data) => {
    const written = compiled(data);
    const expected = zodSerialize(data);
    if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
      throw new Error(`The compiled answer of ${route.method} ${route.url} differs from zod's: ${written} instead of ${expected}`);
    }
    return written;
  };
}

/** The compiled serialiser of a zod answer schema, or null when JSON Schema cannot say it. */
export function compileAnswerSchema(schema: unknown): Serialize | null {
  if (!(schema instanceof z.ZodType)) return null;
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = nullableAsKeyword(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' })) as JsonSchema;
  } catch {
    return null;
  }
  return compileByJsonType(jsonSchema) ?? build(jsonSchema);
}

// Loaded when the first answer is compiled: the module and the validator library it brings keep
// some 9 MB that an idle server would hold for nothing.
let fastJson: typeof fastJsonStringify | undefined;
const build = (schema: JsonSchema) => {
  fastJson ??= createRequire(import.meta.url)('fast-json-stringify') as typeof fastJsonStringify;
  return fastJson(schema as unknown as Parameters<typeof fastJsonStringify>[0]) as Serialize;
};

/**
 * A union whose branches are each of a JSON type of its own (the lists: a plain array, or a page
 * object with `data` and `meta`) is compiled branch by branch and picked by the value's type:
 * fast-json-stringify would otherwise pick by validating the whole answer against each branch.
 */
function compileByJsonType({ anyOf, ...root }: JsonSchema): Serialize | null {
  if (!Array.isArray(anyOf)) return null;
  const branches = new Map<string, Serialize>();
  for (const branch of anyOf as JsonSchema[]) {
    if (typeof branch.type !== 'string' || branch.nullable || branches.has(branch.type)) return null;
    branches.set(branch.type, build({ ...root, ...branch }));
  }
  return (data) => {
    const type = jsonTypeOf(data);
    const serialize = branches.get(type) ?? (type === 'integer' ? branches.get('number') : undefined);
    if (!serialize) throw new Error(`No branch of the answer's schema is of type ${type}`);
    return serialize(data);
  };
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * zod says "or null" as `anyOf: [schema, {type: 'null'}]`, which fast-json-stringify can only
 * serve by running a validator on each value to pick the branch; `nullable: true` on the schema
 * itself is the same contract, written without one.
 */
function nullableAsKeyword(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsKeyword);
  if (node === null || typeof node !== 'object') return node;
  const schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, nullableAsKeyword(value)])) as JsonSchema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((branch) => branch.type === 'null' && Object.keys(branch).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      const { anyOf: _, ...rest } = schema;
      return { ...rest, ...other, nullable: true };
    }
  }
  return schema;
}
