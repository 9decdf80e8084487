import { unsupportedMediaType } from './status.js';

// Request bodies in application/vnd.kubernetes.protobuf. kubectl 1.32 sends its typed
// `create` subcommands (create namespace, deployment, job, service, configmap, secret,
// serviceaccount, role, rolebinding, token) as protobuf and has no JSON fallback for them: a
// 415 is an error it prints. So the sandbox decodes the kinds those subcommands send, with the
// field numbers of k8s.io/api's generated.proto, into the JSON the rest of the server reads.
// A field this table does not know that carries a value is refused with 415 (never dropped).
// Answers are always JSON: kubectl's Accept lists application/json after protobuf.

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

type Scalar = 'string' | 'int' | 'ptrint' | 'bool' | 'ptrbool' | 'bytes' | 'time' | 'quantity' | 'intorstring' | 'skip';
interface Field {
  name: string;
  type: Scalar | Schema;
  repeated?: boolean;
  /** map<string, value>: the entries' value type */
  map?: 'string' | 'bytes' | 'quantity';
}
type Schema = Record<number, Field>;

const f = (name: string, type: Scalar | Schema, more: Partial<Field> = {}): Field => ({ name, type, ...more });
const map = (name: string, value: Field['map'] = 'string') => f(name, 'skip', { map: value });
const strings = (name: string) => f(name, 'string', { repeated: true });

const OWNER_REFERENCE: Schema = { 1: f('kind', 'string'), 3: f('name', 'string'), 4: f('uid', 'string'), 5: f('apiVersion', 'string'), 6: f('controller', 'ptrbool'), 7: f('blockOwnerDeletion', 'ptrbool') };
const OBJECT_META: Schema = {
  1: f('name', 'string'), 2: f('generateName', 'string'), 3: f('namespace', 'string'), 4: f('selfLink', 'string'), 5: f('uid', 'string'),
  6: f('resourceVersion', 'string'), 7: f('generation', 'int'), 8: f('creationTimestamp', 'time'), 9: f('deletionTimestamp', 'time'),
  10: f('deletionGracePeriodSeconds', 'ptrint'), 11: map('labels'), 12: map('annotations'), 13: f('ownerReferences', OWNER_REFERENCE, { repeated: true }), 14: strings('finalizers'),
};
const LABEL_SELECTOR: Schema = { 1: map('matchLabels'), 2: f('matchExpressions', { 1: f('key', 'string'), 2: f('operator', 'string'), 3: strings('values') }, { repeated: true }) };
const RESOURCES: Schema = { 1: map('limits', 'quantity'), 2: map('requests', 'quantity') };
const CONTAINER: Schema = {
  1: f('name', 'string'), 2: f('image', 'string'), 3: strings('command'), 4: strings('args'), 5: f('workingDir', 'string'),
  6: f('ports', { 1: f('name', 'string'), 2: f('hostPort', 'int'), 3: f('containerPort', 'int'), 4: f('protocol', 'string'), 5: f('hostIP', 'string') }, { repeated: true }),
  7: f('env', { 1: f('name', 'string'), 2: f('value', 'string') }, { repeated: true }), 8: f('resources', RESOURCES),
  13: f('terminationMessagePath', 'string'), 14: f('imagePullPolicy', 'string'), 16: f('stdin', 'bool'), 17: f('stdinOnce', 'bool'), 18: f('tty', 'bool'), 20: f('terminationMessagePolicy', 'string'),
};
const POD_SPEC: Schema = {
  2: f('containers', CONTAINER, { repeated: true }), 3: f('restartPolicy', 'string'), 4: f('terminationGracePeriodSeconds', 'ptrint'), 5: f('activeDeadlineSeconds', 'ptrint'),
  6: f('dnsPolicy', 'string'), 7: map('nodeSelector'), 8: f('serviceAccountName', 'string'), 9: f('serviceAccount', 'string'), 10: f('nodeName', 'string'),
  11: f('hostNetwork', 'bool'), 12: f('hostPID', 'bool'), 13: f('hostIPC', 'bool'), 14: f('securityContext', {}), 16: f('hostname', 'string'), 17: f('subdomain', 'string'),
  19: f('schedulerName', 'string'), 20: f('initContainers', CONTAINER, { repeated: true }), 24: f('priorityClassName', 'string'),
};
const POD_TEMPLATE: Schema = { 1: f('metadata', OBJECT_META), 2: f('spec', POD_SPEC) };
const INT_OR_STRING: Scalar = 'intorstring';
/** status is the server's: whatever a client sends there is not read */
const STATUS = f('status', 'skip');

const KINDS: Record<string, Schema> = {
  Namespace: { 1: f('metadata', OBJECT_META), 2: f('spec', { 1: strings('finalizers') }), 3: STATUS },
  ConfigMap: { 1: f('metadata', OBJECT_META), 2: map('data'), 3: map('binaryData', 'bytes'), 4: f('immutable', 'ptrbool') },
  Secret: { 1: f('metadata', OBJECT_META), 2: map('data', 'bytes'), 3: f('type', 'string'), 4: map('stringData'), 5: f('immutable', 'ptrbool') },
  ServiceAccount: { 1: f('metadata', OBJECT_META), 4: f('automountServiceAccountToken', 'ptrbool') },
  Deployment: {
    1: f('metadata', OBJECT_META),
    2: f('spec', {
      1: f('replicas', 'ptrint'), 2: f('selector', LABEL_SELECTOR), 3: f('template', POD_TEMPLATE),
      4: f('strategy', { 1: f('type', 'string'), 2: f('rollingUpdate', { 1: f('maxUnavailable', INT_OR_STRING), 2: f('maxSurge', INT_OR_STRING) }) }),
      5: f('minReadySeconds', 'int'), 6: f('revisionHistoryLimit', 'ptrint'), 7: f('paused', 'bool'), 9: f('progressDeadlineSeconds', 'ptrint'),
    }),
    3: STATUS,
  },
  Job: {
    1: f('metadata', OBJECT_META),
    2: f('spec', {
      1: f('parallelism', 'ptrint'), 2: f('completions', 'ptrint'), 3: f('activeDeadlineSeconds', 'ptrint'), 4: f('selector', LABEL_SELECTOR), 5: f('manualSelector', 'ptrbool'),
      6: f('template', POD_TEMPLATE), 7: f('backoffLimit', 'ptrint'), 8: f('ttlSecondsAfterFinished', 'ptrint'), 10: f('suspend', 'ptrbool'),
    }),
    3: STATUS,
  },
  Service: {
    1: f('metadata', OBJECT_META),
    2: f('spec', {
      1: f('ports', { 1: f('name', 'string'), 2: f('protocol', 'string'), 3: f('port', 'int'), 4: f('targetPort', INT_OR_STRING), 5: f('nodePort', 'int'), 6: f('appProtocol', 'string') }, { repeated: true }),
      2: map('selector'), 3: f('clusterIP', 'string'), 4: f('type', 'string'), 5: strings('externalIPs'), 7: f('sessionAffinity', 'string'), 8: f('loadBalancerIP', 'string'),
      10: f('externalName', 'string'), 11: f('externalTrafficPolicy', 'string'), 12: f('healthCheckNodePort', 'int'), 13: f('publishNotReadyAddresses', 'bool'),
    }),
    3: STATUS,
  },
  Role: { 1: f('metadata', OBJECT_META), 2: f('rules', { 1: strings('verbs'), 2: strings('apiGroups'), 3: strings('resources'), 4: strings('resourceNames'), 5: strings('nonResourceURLs') }, { repeated: true }) },
  RoleBinding: {
    1: f('metadata', OBJECT_META),
    2: f('subjects', { 1: f('kind', 'string'), 2: f('apiGroup', 'string'), 3: f('name', 'string'), 4: f('namespace', 'string') }, { repeated: true }),
    3: f('roleRef', { 1: f('apiGroup', 'string'), 2: f('kind', 'string'), 3: f('name', 'string') }),
  },
  TokenRequest: {
    1: f('metadata', OBJECT_META),
    2: f('spec', { 1: strings('audiences'), 3: f('boundObjectRef', { 1: f('kind', 'string'), 2: f('apiVersion', 'string'), 3: f('name', 'string'), 4: f('uid', 'string') }), 4: f('expirationSeconds', 'ptrint') }),
    3: STATUS,
  },
};

class Reader {
  offset = 0;
  constructor(readonly bytes: Buffer) {}
  get done() {
    return this.offset >= this.bytes.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.done) throw new Error('truncated varint');
      const byte = this.bytes[this.offset++];
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
    }
  }
  chunk(): Buffer {
    const length = Number(this.varint());
    if (this.offset + length > this.bytes.length) throw new Error('truncated field');
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }
}

type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

function decodeMessage(bytes: Buffer, schema: Schema, path: string): Record<string, Value> {
  const out: Record<string, Value> = {};
  const reader = new Reader(bytes);
  while (!reader.done) {
    const key = Number(reader.varint());
    const number = key >> 3;
    const wire = key & 7;
    const field = schema[number];
    let raw: bigint | Buffer;
    if (wire === 0) raw = reader.varint();
    else if (wire === 2) raw = reader.chunk();
    else throw new Error(`wire type ${wire} at ${path}.${number}`);
    if (!field) {
      // what kubectl sends for every unset plain field (empty string, 0, false, {}) carries nothing
      if ((typeof raw === 'bigint' && raw === 0n) || (Buffer.isBuffer(raw) && raw.length === 0)) continue;
      throw new Error(`field ${number} of ${path || 'the object'}`);
    }
    const value = decodeField(field, raw, `${path ? `${path}.` : ''}${field.name}`);
    if (value === undefined) continue;
    if (field.map) {
      const [k, v] = value as [string, Value];
      out[field.name] = { ...(out[field.name] as Record<string, Value>), [k]: v };
    } else if (field.repeated) out[field.name] = [...((out[field.name] as Value[]) ?? []), value];
    else out[field.name] = value;
  }
  return out;
}

function decodeField(field: Field, raw: bigint | Buffer, path: string): Value | undefined {
  const text = () => (raw as Buffer).toString('utf8');
  if (field.map) {
    const entry = decodeMessage(raw as Buffer, { 1: f('key', 'string'), 2: f('value', field.map === 'string' ? 'string' : field.map) }, path);
    return [String(entry.key ?? ''), entry.value ?? ''];
  }
  if (typeof field.type === 'object') return decodeMessage(raw as Buffer, field.type, path);
  switch (field.type) {
    case 'skip':
    case 'time': // server-set timestamps
      return undefined;
    case 'string':
      return field.repeated || text() ? text() : undefined;
    case 'bytes':
      return (raw as Buffer).toString('base64');
    case 'quantity':
      return String(decodeMessage(raw as Buffer, { 1: f('string', 'string') }, path).string ?? '');
    case 'intorstring': {
      const v = decodeMessage(raw as Buffer, { 1: f('type', 'ptrint'), 2: f('intVal', 'ptrint'), 3: f('strVal', 'string') }, path);
      return v.type === 1 ? (v.strVal ?? '') : ((v.intVal as number) ?? 0);
    }
    case 'int':
    case 'ptrint': {
      const n = Number(BigInt.asIntN(64, raw as bigint));
      return n === 0 && field.type === 'int' ? undefined : n;
    }
    case 'bool':
    case 'ptrbool': {
      const b = (raw as bigint) !== 0n;
      return !b && field.type === 'bool' ? undefined : b;
    }
  }
}

/** The JSON object of a protobuf request body (the `k8s\0` envelope around a runtime.Unknown). */
export function decodeProtobuf(body: Buffer): Record<string, Value> {
  const refuse = (why: string) => unsupportedMediaType(`${PROTOBUF} (${why}; the sandbox decodes protobuf only for what kubectl's create subcommands send: send JSON)`);
  if (body.length < 4 || body.subarray(0, 4).toString('latin1') !== 'k8s\0') throw refuse('no k8s protobuf envelope');
  try {
    const unknown = decodeMessage(body.subarray(4), { 1: f('typeMeta', { 1: f('apiVersion', 'string'), 2: f('kind', 'string') }), 2: f('raw', 'bytes'), 3: f('contentEncoding', 'string'), 4: f('contentType', 'string') }, '');
    const typeMeta = (unknown.typeMeta ?? {}) as Record<string, string>;
    const schema = KINDS[typeMeta.kind ?? ''];
    if (!schema) throw new Error(`kind ${typeMeta.kind || '(none)'}`);
    const object = decodeMessage(Buffer.from(String(unknown.raw ?? ''), 'base64'), schema, '');
    return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...object };
  } catch (error) {
    throw refuse(`cannot decode ${(error as Error).message}`);
  }
}
