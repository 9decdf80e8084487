import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { kubeConfigFor } from '../kubernetesGateway.js';
import { startSandboxCluster } from './server.js';

// `npm run sandbox`: the sandbox Kubernetes API on its own, so that several console replicas
// (CLUSTER=kubernetes, KUBECONFIG=the file written here) share one cluster, as they would
// share a real one. The in-process sandbox (CLUSTER=sandbox) stays the default for one process.
//
//   npm run sandbox -- [--host 127.0.0.1] [--port 6443] [--storage storage]
//                      [--kubeconfig <storage>/sandbox-cluster/admin.kubeconfig]
//                      [--server-name sandbox.local ...] [--public-host <name>] [--audit-log <file>]
//
// --audit-log appends one JSON line per API request ({verb, path, user}), like kube-apiserver's
// audit log: the multi-replica test counts the reconciler's writes with it.

const usage = `Usage: npm run sandbox -- [--host ADDRESS] [--port PORT] [--storage DIR] [--kubeconfig FILE]
                           [--server-name NAME ...] [--public-host NAME] [--audit-log FILE]`;

export interface StandaloneOptions {
  host: string;
  port: number;
  storage: string;
  kubeconfig: string;
  serverNames: string[];
  publicHost?: string;
  auditLog?: string;
}

export function parseStandaloneArgs(args: string[], env: NodeJS.ProcessEnv = process.env): StandaloneOptions {
  const { values } = parseArgs({
    args,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      storage: { type: 'string' },
      kubeconfig: { type: 'string' },
      'server-name': { type: 'string', multiple: true },
      'public-host': { type: 'string' },
      'audit-log': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port ?? env.SANDBOX_CLUSTER_PORT ?? 6443);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number (0-65535), not ${values.port}`);
  const storage = resolve(values.storage ?? env.STORAGE_DIR ?? 'storage');
  return {
    host: values.host ?? '127.0.0.1',
    port,
    storage,
    kubeconfig: resolve(values.kubeconfig ?? join(storage, 'sandbox-cluster', 'admin.kubeconfig')),
    serverNames: values['server-name'] ?? [],
    publicHost: values['public-host'],
    auditLog: values['audit-log'] ? resolve(values['audit-log']) : undefined,
  };
}

async function main(): Promise<void> {
  let options: StandaloneOptions;
  try {
    options = parseStandaloneArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  const { auditLog } = options;
  if (auditLog) mkdirSync(dirname(auditLog), { recursive: true });
  const sandbox = await startSandboxCluster({
    storageDir: options.storage,
    host: options.host,
    port: options.port,
    serverNames: options.serverNames,
    publicHost: options.publicHost,
    onRequest: auditLog ? (request) => appendFileSync(auditLog, `${JSON.stringify(request)}\n`) : undefined,
  });
  mkdirSync(dirname(options.kubeconfig), { recursive: true });
  writeFileSync(options.kubeconfig, kubeConfigFor({ server: sandbox.url, caPem: sandbox.caPem, token: sandbox.adminToken }).exportConfig(), {
    mode: 0o600,
  });
  console.log(`Sandbox Kubernetes API at ${sandbox.url} (state in ${join(options.storage, 'sandbox-cluster')})`);
  console.log(`Admin kubeconfig: ${options.kubeconfig}`);
  console.log(`Console replicas: CLUSTER=kubernetes KUBECONFIG=${options.kubeconfig} npm start`);

  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
