import { timestamp, type ApiContext } from '../context.js';
import type { KubeObject } from '../store.js';
import { type Condition, controllerIdentity, isPodActive, isPodReady, ownedBy, setCondition } from './common.js';
import { createPods } from './replicaSets.js';

// The Job controller of the sandbox: runs up to spec.parallelism pods at a time until
// spec.completions of them succeeded, then marks the Job Complete (conditions SuccessCriteriaMet
// and Complete, status.succeeded, completionTime). In the sandbox a Job's pod runs for the
// runtime's jobRunMs and then exits 0 (runtime.ts): there is no real container to run the
// command, so every Job succeeds. A failed pod (none happen on their own) counts towards
// backoffLimit, past which the Job is Failed (BackoffLimitExceeded).

const IDENTITY = controllerIdentity('job-controller');

const finished = (conditions: Condition[] = []) => conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');

export function syncJob(context: ApiContext, job: KubeObject) {
  const { store } = context;
  const namespace = job.metadata.namespace;
  const owned = () => store.list('pods', namespace).filter((p) => ownedBy(p, job));
  const spec = job.spec;
  const completions = Number(spec.completions ?? 1);
  const parallelism = Number(spec.parallelism ?? 1);
  let pods = owned();
  const count = (phase: string) => pods.filter((p) => p.status?.phase === phase).length;
  let conditions = (job.status?.conditions ?? []) as Condition[];
  const now = timestamp();
  if (!finished(job.status?.conditions) && !spec.suspend) {
    const succeeded = count('Succeeded');
    const failed = count('Failed');
    const active = pods.filter(isPodActive).length;
    const wanted = Math.min(parallelism, completions - succeeded) - active;
    if (failed > Number(spec.backoffLimit ?? 6)) {
      conditions = setCondition(conditions, 'FailureTarget', { status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, true);
      conditions = setCondition(conditions, 'Failed', { status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, true);
    } else if (succeeded >= completions) {
      conditions = setCondition(conditions, 'SuccessCriteriaMet', { status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }, true);
      conditions = setCondition(conditions, 'Complete', { status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' }, true);
    } else if (wanted > 0) {
      // a refusal (quota …) is retried when the namespace changes, as the controller's backoff would
      createPods(context, job, spec.template, wanted, IDENTITY);
    }
    pods = owned();
  }
  const active = pods.filter(isPodActive);
  const done = finished(conditions);
  const status: Condition = {
    ...(conditions.length ? { conditions } : {}),
    startTime: job.status?.startTime ?? now,
    ...(done && conditions.some((c) => c.type === 'Complete') ? { completionTime: job.status?.completionTime ?? now } : {}),
    ...(active.length ? { active: active.length } : {}),
    ...(count('Succeeded') ? { succeeded: count('Succeeded') } : {}),
    ...(count('Failed') ? { failed: count('Failed') } : {}),
    terminating: 0,
    ready: active.filter(isPodReady).length,
    uncountedTerminatedPods: {},
  };
  if (JSON.stringify(status) !== JSON.stringify(job.status ?? {})) {
    store.modify('jobs', namespace, job.metadata.name, (o) => {
      if (o.metadata.uid === job.metadata.uid) o.status = status;
    });
  }
}
