import { z } from 'zod';
import { paginationQuery } from '../http/pagination.js';
import { controlCharacterMessage, isSingleLine, lineText, optionalLineText, optionalText } from '../http/schemas.js';
import { CLAIM_CODE_LENGTH } from './secrets.js';

// Request and response schemas of the nodes domain (docs/nodes-contract.md). Field messages
// read like Laravel's, keyed by the field names the add-node form sends.

export const NODE_TYPES = ['raspberry-pi', 'jetson', 'x86-64', 'arm64', 'virtual-machine', 'other'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const NOTES_MAX = 1000;

/** RFC 1123 host name: dot-separated labels of letters, digits and inner dashes, ≤ 63 each, ≤ 253 in all. */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** Dotted quad, each part 0–255 without leading zeros. */
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export const isIpv4 = (value: string) => IPV4.test(value);

export const HOSTNAME_INVALID = 'The hostname must be a valid host name: letters, digits and dashes, in dot-separated parts of at most 63 characters.';
export const IPV4_INVALID = 'The ipv4 field must be a valid IPv4 address.';
export const IPV4_REQUIRED = 'The ipv4 field is required when dhcp is false.';
export const CODE_INVALID = `The code must be ${CLAIM_CODE_LENGTH} letters, like ABCXYZ.`;
export const CODE_UNKNOWN = 'The code is unknown or has expired.';
/** On `hostname`: another node already goes by that name (names.ts). */
export const HOSTNAME_TAKEN = 'This name is already used by another node. Choose another hostname.';

/** Laravel's boolean rule: true, false, 1, 0, "1", "0" (and "true"/"false", which forms send). */
const booleanField = (field: string) =>
  z.preprocess(
    (value) => {
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return value;
    },
    z.boolean({ error: `The ${field} field must be true or false.` }),
  );

export const newNodeBody = z
  .object({
    // Optional only when claiming by code: the machine then keeps the type it registered with.
    type: z.preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      z.enum(NODE_TYPES, { error: 'The selected type is invalid.' }).optional(),
    ),
    // Absent means DHCP, the common case for a machine on a lab network.
    dhcp: booleanField('dhcp').optional().default(true),
    hostname: optionalLineText('hostname', 253).transform((value) => value?.toLowerCase() ?? null).refine((value) => value === null || HOSTNAME.test(value), HOSTNAME_INVALID),
    ipv4: optionalLineText('ipv4', 15).refine((value) => value === null || IPV4.test(value), IPV4_INVALID),
    notes: optionalText('notes', NOTES_MAX),
    code: optionalLineText('code', 32)
      .transform((value) => value?.toUpperCase() ?? null)
      .refine((value) => value === null || new RegExp(`^[A-Z]{${CLAIM_CODE_LENGTH}}$`).test(value), CODE_INVALID),
  })
  .refine((body) => body.type !== undefined || body.code !== null, {
    path: ['type'],
    message: 'The type field is required.',
    when: (payload) => {
      const value = payload.value as { type?: unknown; code?: unknown } | undefined;
      return (value?.type === undefined || value.type === null || value.type === '') && !value?.code;
    },
  })
  .refine((body) => body.dhcp || body.ipv4 !== null, {
    path: ['ipv4'],
    message: IPV4_REQUIRED,
    // Also checked when another field is wrong, so every message shows at once.
    when: (payload) => {
      const value = payload.value as { dhcp?: unknown; ipv4?: unknown } | undefined;
      return (value?.dhcp === false || value?.dhcp === 0 || value?.dhcp === '0' || value?.dhcp === 'false') && !value?.ipv4;
    },
  });

export type NewNodeInput = z.output<typeof newNodeBody>;

const ownerSchema = z.object({ id: z.number(), name: z.string() }).nullable();

export const NODE_STATUSES = ['to install', 'installing', 'ok', 'warning', 'error', 'unknown', ''] as const;

export const nodeSchema = z.object({
  id: z.number(),
  name: z.string().nullable(),
  type: z.string(),
  dhcp: z.boolean(),
  hostname: z.string().nullable(),
  ip_v4: z.string().nullable(),
  ip_v6: z.string().nullable(),
  notes: z.string().nullable(),
  lastActive: z.string().nullable(),
  /** '' = Disabled. */
  status: z.enum(NODE_STATUSES),
  info: z.record(z.string(), z.unknown()),
  installation_url: z.string(),
  image_url: z.string(),
  owner: ownerSchema,
  created_at: z.string(),
  /** The team the node counts for (contributor credit); null: none. */
  team_id: z.number().nullable(),
});

export const nodeActivitySchema = z.object({
  id: z.number(),
  created_at: z.string(),
  description: z.string(),
  properties: z.looseObject({ severity: z.enum(['info', 'warning', 'error']) }),
});

export const nodesQuery = z.object({
  owner: z
    .string({ error: 'The owner filter must be a user id or all.' })
    .regex(/^(all|\d{1,9})$/, 'The owner filter must be a user id or all.')
    .optional(),
});

const addressSchema = z.object({ type: z.string(), address: z.string() });

export const adminNodeSchema = z.object({
  name: z.string(),
  hostname: z.string().nullable(),
  type: z.string(),
  owner: ownerSchema,
  node_id: z.number().nullable(),
  status: z.object({
    // The spec's data has the misspelt key; both are served.
    addesses: z.array(addressSchema),
    addresses: z.array(addressSchema),
    capacity: z.object({ cpu: z.string().nullable(), memory: z.string().nullable(), 'ephemeral-storage': z.string().nullable(), pods: z.string().nullable() }),
    nodeInfo: z.object({ architecture: z.string(), operatingSystem: z.string(), osImage: z.string(), kubeletVersion: z.string() }),
    conditions: z.array(
      z.object({ type: z.string(), status: z.string(), reason: z.string().nullable(), message: z.string().nullable(), lastHeartbeatTime: z.string().nullable() }),
    ),
    state: z.enum(NODE_STATUSES),
  }),
  unschedulable: z.boolean(),
  lastActive: z.string().nullable(),
});

export const adminNodeDetailSchema = adminNodeSchema.extend({ activity: z.array(nodeActivitySchema) });

/** The admin list's status filter: the presented states, 'disabled' standing for ''. */
export const ADMIN_NODE_STATUS_FILTERS = ['to install', 'installing', 'ok', 'warning', 'error', 'unknown', 'disabled'] as const;

export const adminNodesQuery = z.object({
  ...paginationQuery,
  q: z
    .string({ error: 'The q field must be a string.' })
    .trim()
    .max(255, 'The q field must not be greater than 255 characters.')
    .optional(),
  'filter[status]': z.enum(ADMIN_NODE_STATUS_FILTERS, { error: `The status filter must be one of ${ADMIN_NODE_STATUS_FILTERS.join(', ')}.` }).optional(),
  'filter[type]': z.enum(NODE_TYPES, { error: `The type filter must be one of ${NODE_TYPES.join(', ')}.` }).optional(),
  'filter[owner_id]': z
    .string({ error: 'The owner_id filter must be an id.' })
    .regex(/^\d{1,10}$/, 'The owner_id filter must be an id.')
    .transform(Number)
    .optional(),
});

/** A Kubernetes Node name in a path (DNS subdomain); anything else names nothing (404). */
export const nodeNameParams = z.object({ name: z.string().regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/) });

// ---------------------------------------------------------------------------------------
// Agent protocol

export const AGENT_STEPS = ['checkin', 'installing', 'joined', 'failed'] as const;
export type AgentStep = (typeof AGENT_STEPS)[number];

// Facts come from the machine (uname, os-release): one line each, like any name.
const factText = (field: string) => lineText(field).optional();

export const agentFacts = z.object({
  hostname: factText('facts.hostname'),
  addresses: z
    .array(
      z
        .string({ error: 'Each address must be a string.' })
        .trim()
        .max(100, 'An address must not be greater than 100 characters.')
        .refine(isSingleLine, controlCharacterMessage('facts.addresses')),
      { error: 'The facts.addresses field must be a list of addresses.' },
    )
    .max(64, 'The facts.addresses field must not have more than 64 addresses.')
    .optional(),
  architecture: factText('facts.architecture'),
  os: factText('facts.os'),
  kernel: factText('facts.kernel'),
});

export type AgentFacts = z.output<typeof agentFacts>;

export const agentReportBody = z.object({
  step: z.enum(AGENT_STEPS, { error: `The step field must be one of ${AGENT_STEPS.join(', ')}.` }),
  message: optionalText('message', 2000),
  facts: agentFacts.optional(),
});

export const agentRegisterBody = z.object({ facts: agentFacts.optional().default({}) });
