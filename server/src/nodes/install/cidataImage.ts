import { createHash } from 'node:crypto';
import { buildFat12Image } from './fatImage.js';
import { assertNodeSecret, normalizeAppUrl, renderInstallScript, shellQuote } from './installScript.js';

// "Install from USB stick": a cloud-init NoCloud seed. cloud-init looks for a filesystem labelled
// CIDATA holding `user-data` and `meta-data`; ours makes the machine run the node's install
// script on first boot. Built in memory (see fatImage.ts), served by GET /api/nodes/{id}/image.

export interface NodeSeedInput {
  appUrl: string;
  /** The node's secret, or null for the generic (machine-first) seed. */
  secret: string | null;
  /** The machine's hostname (cloud-init's local-hostname), when the user gave one. */
  hostname?: string | null;
  /** Timestamp of the files in the image; defaults to now. */
  modifiedAt?: Date;
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Where the seed's copy of the install script goes on the machine. */
export const SEED_SCRIPT_PATH = '/var/lib/testbed/install.sh';

function checkInput(input: NodeSeedInput): { appUrl: string; hostname: string | null } {
  const appUrl = normalizeAppUrl(input.appUrl);
  if (input.secret !== null) assertNodeSecret(input.secret);
  const hostname = input.hostname ?? null;
  if (hostname !== null && !HOSTNAME.test(hostname)) throw new Error(`Invalid hostname for the seed image: ${JSON.stringify(hostname)}`);
  return { appUrl, hostname };
}

/** The URL the seed downloads the install script from: the node's own, or the generic one. */
export function seedInstallUrl(input: Pick<NodeSeedInput, 'appUrl' | 'secret'>): string {
  const appUrl = normalizeAppUrl(input.appUrl);
  if (input.secret === null) return `${appUrl}/agent/install`;
  assertNodeSecret(input.secret);
  return `${appUrl}/agent/install/${input.secret}`;
}

/**
 * cloud-init runs a seed once per instance-id. Stable for a node (derived from the console and
 * the secret without revealing it), so rebooting with the same stick does not install again.
 */
export function seedInstanceId(input: Pick<NodeSeedInput, 'appUrl' | 'secret'>): string {
  const appUrl = normalizeAppUrl(input.appUrl);
  const digest = createHash('sha256').update(`${appUrl}\n${input.secret ?? 'generic'}`).digest('hex').slice(0, 16);
  return input.secret === null ? `testbed-node-generic-${digest}` : `testbed-node-${digest}`;
}

export function seedMetaData(input: NodeSeedInput): string {
  const { hostname } = checkInput(input);
  const lines = [`instance-id: ${seedInstanceId(input)}`];
  if (hostname) lines.push(`local-hostname: ${hostname}`);
  return `${lines.join('\n')}\n`;
}

export function seedUserData(input: NodeSeedInput): string {
  checkInput(input);
  const url = seedInstallUrl(input);
  const script = renderInstallScript({ appUrl: input.appUrl, secret: input.secret });
  return [
    '#cloud-config',
    '# Testbed node seed (cloud-init NoCloud). On first boot this machine installs itself as a',
    '# Testbed node: it downloads the current install script from the console and runs it, or runs',
    `# the copy written below (${SEED_SCRIPT_PATH}) when the console cannot be reached.`,
    'write_files:',
    `  - path: ${SEED_SCRIPT_PATH}`,
    '    owner: root:root',
    "    permissions: '0700'",
    '    encoding: b64',
    `    content: ${Buffer.from(script, 'utf8').toString('base64')}`,
    'runcmd:',
    '  - |',
    `    url=${shellQuote(url)}`,
    '    mkdir -p /var/lib/testbed',
    '    if curl -fsSL --retry 10 --retry-delay 6 --retry-connrefused --connect-timeout 10 -o /var/lib/testbed/install-latest.sh "$url"; then',
    '      sh /var/lib/testbed/install-latest.sh',
    '    else',
    `      echo 'Could not download the install script from the console; running the copy from the seed image.'`,
    `      sh ${SEED_SCRIPT_PATH}`,
    '    fi',
    '',
  ].join('\n');
}

/** The seed image: a FAT12 volume labelled CIDATA holding user-data and meta-data. */
export function buildNodeSeedImage(input: NodeSeedInput): Buffer {
  return buildFat12Image({
    label: 'CIDATA',
    modifiedAt: input.modifiedAt,
    files: [
      { name: 'user-data', content: Buffer.from(seedUserData(input), 'utf8') },
      { name: 'meta-data', content: Buffer.from(seedMetaData(input), 'utf8') },
    ],
  });
}
