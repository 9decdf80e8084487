import type { SandboxRuntime } from './runtime.js';
import type { ObjectStore } from './store.js';

/** What the request handlers of the sandbox API server share (built by startSandboxCluster). */
export interface ApiContext {
  store: ObjectStore;
  runtime: SandboxRuntime;
  /** The cluster CA (PEM), published in each namespace's kube-root-ca.crt. */
  caPem: string;
  /** Asks for the state to be saved shortly (changes that make no store event, e.g. tokens). */
  saveSoon(): void;
  /** Ends the open watches when the server closes. */
  closers: Set<() => void>;
}

/** RFC 3339 without fractions, as Kubernetes writes timestamps. */
export const timestamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
