import { invalid, type StatusCause } from './status.js';
import type { KubeObject } from './store.js';

// Pod Security Admission as kube-apiserver runs it (k8s.io/pod-security-admission): a namespace's
// `pod-security.kubernetes.io/<mode>[-version]` labels choose a level (privileged, baseline,
// restricted) per mode; `enforce` refuses violating pods with 403, `warn` answers `Warning`
// headers, `audit` would annotate the audit log (the sandbox has none). The checks, their order
// (baseline check ids sorted, then restricted ones), their reasons and details are the
// upstream ones, so messages read exactly like a real cluster's.

export type Level = 'privileged' | 'baseline' | 'restricted';
/** A policy version: the minor of v1.x, or latest. */
type Version = number | 'latest';
interface LevelVersion {
  level: Level;
  version: Version;
}
export interface NamespacePolicy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export const POD_SECURITY_LABEL_PREFIX = 'pod-security.kubernetes.io/';
const MODES = ['enforce', 'audit', 'warn'] as const;
const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];
const VERSION = /^v1\.([0-9]|[1-9][0-9]*)$/;

/**
 * The newest policy version the sandbox implements (the baseline of v1.34 adds the probe and
 * lifecycle host check). Pins beyond it, and `latest`, are evaluated as v1.34, as kube-apiserver
 * evaluates versions newer than itself with the newest policy it has; messages keep the pin.
 */
export const NEWEST_POLICY_MINOR = 34;

const versionString = (version: Version) => (version === 'latest' ? 'latest' : `v1.${version}`);
const levelVersionString = (lv: LevelVersion) => `${lv.level}:${versionString(lv.version)}`;

/**
 * The namespace's policy from its labels, as api.PolicyToEvaluate reads them: unset modes are
 * privileged:latest (kube-apiserver's default configuration); a bad enforce level fails closed
 * (restricted), bad audit/warn levels fail open (privileged), a bad version is latest; warn
 * follows a stricter enforce level when it is not set itself. `errors` name the bad labels.
 */
export function namespacePolicy(labels: Record<string, string> | undefined): { policy: NamespacePolicy; errors: StatusCause[] } {
  const policy: NamespacePolicy = {
    enforce: { level: 'privileged', version: 'latest' },
    audit: { level: 'privileged', version: 'latest' },
    warn: { level: 'privileged', version: 'latest' },
  };
  const errors: StatusCause[] = [];
  const bad = (label: string, value: string, message: string) =>
    errors.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${message}`, field: `metadata.labels[${label}]` });
  for (const mode of MODES) {
    const levelLabel = `${POD_SECURITY_LABEL_PREFIX}${mode}`;
    const level = labels?.[levelLabel];
    if (level !== undefined) {
      if ((LEVELS as string[]).includes(level)) policy[mode].level = level as Level;
      else {
        policy[mode].level = mode === 'enforce' ? 'restricted' : 'privileged';
        bad(levelLabel, level, `must be one of ${LEVELS.join(', ')}`);
      }
    }
    const versionLabel = `${levelLabel}-version`;
    const version = labels?.[versionLabel];
    if (version !== undefined) {
      const match = VERSION.exec(version);
      if (version === 'latest') policy[mode].version = 'latest';
      else if (match) policy[mode].version = Number(match[1]);
      else bad(versionLabel, version, 'must be "latest" or "v1.x"');
    }
  }
  const enforceSet = labels?.[`${POD_SECURITY_LABEL_PREFIX}enforce`] !== undefined && !errors.some((e) => e.field.endsWith('/enforce]'));
  const warnSet = labels?.[`${POD_SECURITY_LABEL_PREFIX}warn`] !== undefined;
  if (!warnSet && enforceSet && LEVELS.indexOf(policy.enforce.level) > LEVELS.indexOf(policy.warn.level)) {
    policy.warn.level = policy.enforce.level;
    if (labels?.[`${POD_SECURITY_LABEL_PREFIX}warn-version`] === undefined) policy.warn.version = policy.enforce.version;
  }
  return { policy, errors };
}

// ---------------------------------------------------------------------------------------
// The checks

interface Violation {
  reason: string;
  detail: string;
}
type CheckFn = (pod: KubeObject, minor: number) => Violation | null;
interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** The first policy version (minor) the check belongs to. */
  since: number;
  /** Baseline checks this one replaces at the restricted level, from `since` on. */
  overrides?: string[];
  check: CheckFn;
}

const joinQuote = (items: string[]) => (items.length ? `"${items.join('", "')}"` : '');
const pluralize = (singular: string, plural: string, count: number) => (count === 1 ? singular : plural);
/** Go's sets.String.List(): sorted, unique. */
const sorted = (items: Iterable<string>) => [...new Set(items)].sort();
const containersPhrase = (names: string[]) => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Container = Record<string, any>;
/** Init containers, containers, then ephemeral containers, as visitContainers does. */
function containers(pod: KubeObject): Container[] {
  const spec = pod.spec ?? {};
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])].filter(
    (c: unknown) => typeof c === 'object' && c !== null,
  );
}
const podContext = (pod: KubeObject) => pod.spec?.securityContext ?? undefined;
const isWindows = (pod: KubeObject) => pod.spec?.os?.name === 'windows';
const annotations = (pod: KubeObject): Record<string, string> => pod.metadata?.annotations ?? {};

/** "pod", "containers "a", "b"": who set a forbidden value. */
function setters(podBad: boolean, badContainers: string[]): string[] {
  const result = podBad ? ['pod'] : [];
  if (badContainers.length) result.push(containersPhrase(badContainers));
  return result;
}

const CAPABILITIES_BASELINE = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const SYSCTLS: [number, string[]][] = [
  [0, ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start']],
  [27, ['net.ipv4.ip_local_reserved_ports']],
  [29, ['net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
  [32, ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
];
const SELINUX_TYPES = ['', 'container_t', 'container_init_t', 'container_kvm_t'];
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_ANNOTATION = 'container.apparmor.security.beta.kubernetes.io/';
const validSeccomp = (type: unknown) => type === 'Localhost' || type === 'RuntimeDefault';

const CHECKS: Check[] = [
  // ----- baseline
  {
    id: 'appArmorProfile',
    level: 'baseline',
    since: 0,
    check(pod) {
      const allowed = (type: unknown) => type === 'RuntimeDefault' || type === 'Localhost';
      const badValues = new Set<string>();
      const podProfile = podContext(pod)?.appArmorProfile;
      const podBad = podProfile != null && !allowed(podProfile.type);
      if (podBad) badValues.add(String(podProfile.type ?? ''));
      const bad = containers(pod).filter((c) => c.securityContext?.appArmorProfile != null && !allowed(c.securityContext.appArmorProfile.type));
      for (const c of bad) badValues.add(String(c.securityContext.appArmorProfile.type ?? ''));
      const who = setters(podBad, bad.map((c) => c.name));
      const forbiddenAnnotations = Object.entries(annotations(pod))
        .filter(([key, value]) => key.startsWith(APPARMOR_ANNOTATION) && !(value === '' || value === 'runtime/default' || value.startsWith('localhost/')))
        .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
        .sort();
      const values = [...sorted(badValues), ...forbiddenAnnotations];
      if (forbiddenAnnotations.length) who.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length));
      if (!who.length) return null;
      return {
        reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
        detail: `${who.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
      };
    },
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    since: 0,
    check(pod) {
      const added = new Set<string>();
      const bad: string[] = [];
      for (const c of containers(pod)) {
        const forbidden = ((c.securityContext?.capabilities?.add ?? []) as string[]).filter((cap) => !CAPABILITIES_BASELINE.has(cap));
        forbidden.forEach((cap) => added.add(cap));
        if (forbidden.length) bad.push(c.name);
      }
      if (!bad.length) return null;
      return { reason: 'non-default capabilities', detail: `${containersPhrase(bad)} must not include ${joinQuote(sorted(added))} in securityContext.capabilities.add` };
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    since: 0,
    check(pod) {
      const shared = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((field) => pod.spec?.[field] === true).map((field) => `${field}=true`);
      return shared.length ? { reason: 'host namespaces', detail: shared.join(', ') } : null;
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    since: 0,
    check(pod) {
      const volumes = ((pod.spec?.volumes ?? []) as Container[]).filter((v) => v?.hostPath != null).map((v) => v.name);
      return volumes.length ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', volumes.length)} ${joinQuote(volumes)}` } : null;
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    since: 0,
    check(pod) {
      const ports = new Set<string>();
      const bad: string[] = [];
      for (const c of containers(pod)) {
        const used = ((c.ports ?? []) as Container[]).filter((p) => p?.hostPort && p.hostPort !== 0).map((p) => String(p.hostPort));
        used.forEach((port) => ports.add(port));
        if (used.length) bad.push(c.name);
      }
      if (!bad.length) return null;
      const list = sorted(ports);
      return {
        reason: 'hostPort',
        detail: `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`,
      };
    },
  },
  {
    id: 'hostProbesAndHostLifecycle',
    level: 'baseline',
    since: 34,
    check(pod) {
      const hosts = new Set<string>();
      const bad = new Set<string>();
      const handlerHosts = (handler: Container | undefined) => [handler?.httpGet?.host, handler?.tcpSocket?.host].filter((host): host is string => typeof host === 'string' && host !== '');
      for (const c of containers(pod)) {
        const found = [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop].flatMap(handlerHosts);
        found.forEach((host) => hosts.add(host));
        if (found.length) bad.add(c.name);
      }
      if (!bad.size) return null;
      const names = sorted(bad);
      const list = sorted(hosts);
      return {
        reason: 'probe or lifecycle host',
        detail: `${containersPhrase(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', list.length)} ${joinQuote(list)}`,
      };
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    since: 0,
    check(pod) {
      const bad = containers(pod).filter((c) => c.securityContext?.privileged === true).map((c) => c.name);
      return bad.length ? { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` } : null;
    },
  },
  {
    id: 'procMount',
    level: 'baseline',
    since: 0,
    check(pod) {
      const types = new Set<string>();
      const bad: string[] = [];
      for (const c of containers(pod)) {
        const procMount = c.securityContext?.procMount;
        if (procMount == null || procMount === 'Default') continue;
        bad.push(c.name);
        types.add(String(procMount));
      }
      return bad.length ? { reason: 'procMount', detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sorted(types))}` } : null;
    },
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    since: 0,
    check(pod, minor) {
      const allowedTypes = minor >= 31 ? [...SELINUX_TYPES, 'container_engine_t'] : SELINUX_TYPES;
      const badTypes = new Set<string>();
      let setUser = false;
      let setRole = false;
      const valid = (options: Container) => {
        let ok = true;
        const type = options.type ?? '';
        if (!allowedTypes.includes(type)) {
          ok = false;
          badTypes.add(type);
        }
        if (options.user) {
          ok = false;
          setUser = true;
        }
        if (options.role) {
          ok = false;
          setRole = true;
        }
        return ok;
      };
      const podOptions = podContext(pod)?.seLinuxOptions;
      const podBad = podOptions != null && !valid(podOptions);
      const bad = containers(pod).filter((c) => c.securityContext?.seLinuxOptions != null && !valid(c.securityContext.seLinuxOptions)).map((c) => c.name);
      const who = setters(podBad, bad);
      if (!who.length) return null;
      const data: string[] = [];
      if (badTypes.size) data.push(`${pluralize('type', 'types', badTypes.size)} ${joinQuote(sorted(badTypes))}`);
      if (setUser) data.push('user may not be set');
      if (setRole) data.push('role may not be set');
      return { reason: 'seLinuxOptions', detail: `${who.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    since: 0,
    check(pod, minor) {
      if (minor < 19) {
        // Before the field existed, the alpha annotations.
        const validAnnotation = (value: string) => value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
        const forbidden = new Set<string>();
        const podValue = annotations(pod)[SECCOMP_POD_ANNOTATION];
        if (podValue !== undefined && !validAnnotation(podValue)) forbidden.add(`${SECCOMP_POD_ANNOTATION}=${JSON.stringify(podValue)}`);
        for (const c of containers(pod)) {
          const key = SECCOMP_CONTAINER_ANNOTATION + c.name;
          const value = annotations(pod)[key];
          if (value !== undefined && !validAnnotation(value)) forbidden.add(`${key}=${JSON.stringify(value)}`);
        }
        if (!forbidden.size) return null;
        return { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', forbidden.size)} ${sorted(forbidden).join(', ')}` };
      }
      const badValues = new Set<string>();
      const podProfile = podContext(pod)?.seccompProfile;
      const podBad = podProfile != null && !validSeccomp(podProfile.type);
      if (podBad) badValues.add(String(podProfile.type ?? ''));
      const bad = containers(pod).filter((c) => c.securityContext?.seccompProfile != null && !validSeccomp(c.securityContext.seccompProfile.type));
      for (const c of bad) badValues.add(String(c.securityContext.seccompProfile.type ?? ''));
      const who = setters(podBad, bad.map((c) => c.name));
      if (!who.length) return null;
      return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sorted(badValues))}` };
    },
  },
  {
    id: 'sysctls',
    level: 'baseline',
    since: 0,
    check(pod, minor) {
      const allowed = new Set(SYSCTLS.filter(([since]) => since <= minor).flatMap(([, names]) => names));
      const forbidden = ((podContext(pod)?.sysctls ?? []) as Container[]).map((s) => String(s?.name ?? '')).filter((name) => !allowed.has(name));
      return forbidden.length ? { reason: 'forbidden sysctls', detail: forbidden.join(', ') } : null;
    },
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    since: 0,
    check(pod) {
      const podBad = podContext(pod)?.windowsOptions?.hostProcess === true;
      const bad = containers(pod).filter((c) => c.securityContext?.windowsOptions?.hostProcess === true).map((c) => c.name);
      const who = setters(podBad, bad);
      return who.length ? { reason: 'hostProcess', detail: `${who.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` } : null;
    },
  },
  // ----- restricted
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    since: 8,
    check(pod, minor) {
      if (minor >= 25 && isWindows(pod)) return null;
      const bad = containers(pod).filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => c.name);
      return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false` } : null;
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    since: 22,
    overrides: ['capabilities_baseline'],
    check(pod, minor) {
      if (minor >= 25 && isWindows(pod)) return null;
      const missingDropAll: string[] = [];
      const adding: string[] = [];
      const forbidden = new Set<string>();
      for (const c of containers(pod)) {
        const capabilities = c.securityContext?.capabilities;
        if (capabilities == null) {
          missingDropAll.push(c.name);
          continue;
        }
        if (!((capabilities.drop ?? []) as string[]).includes('ALL')) missingDropAll.push(c.name);
        const added = ((capabilities.add ?? []) as string[]).filter((cap) => cap !== 'NET_BIND_SERVICE');
        added.forEach((cap) => forbidden.add(cap));
        if (added.length) adding.push(c.name);
      }
      const details: string[] = [];
      if (missingDropAll.length) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
      if (adding.length) details.push(`${containersPhrase(adding)} must not include ${joinQuote(sorted(forbidden))} in securityContext.capabilities.add`);
      return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : null;
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    since: 0,
    overrides: ['hostPathVolumes'],
    check(pod) {
      const allowed = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
      const restricted = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos'];
      const badVolumes: string[] = [];
      const types = new Set<string>();
      for (const volume of (pod.spec?.volumes ?? []) as Container[]) {
        if (allowed.some((type) => volume?.[type] != null)) continue;
        badVolumes.push(volume?.name);
        types.add(restricted.find((type) => volume?.[type] != null) ?? 'unknown');
      }
      if (!badVolumes.length) return null;
      return {
        reason: 'restricted volume types',
        detail: `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.size)} ${joinQuote(sorted(types))}`,
      };
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    since: 0,
    check(pod) {
      const podValue = podContext(pod)?.runAsNonRoot;
      const podBad = podValue === false;
      const explicit: string[] = [];
      const implicit: string[] = [];
      for (const c of containers(pod)) {
        const value = c.securityContext?.runAsNonRoot;
        if (value != null) {
          if (value === false) explicit.push(c.name);
        } else if (podValue !== true) implicit.push(c.name);
      }
      const who = setters(podBad, explicit);
      if (who.length) return { reason: 'runAsNonRoot != true', detail: `${who.join(' and ')} must not set securityContext.runAsNonRoot=false` };
      if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
      return null;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    since: 23,
    check(pod) {
      const podBad = podContext(pod)?.runAsUser === 0;
      const bad = containers(pod).filter((c) => c.securityContext?.runAsUser === 0).map((c) => c.name);
      const who = setters(podBad, bad);
      return who.length ? { reason: 'runAsUser=0', detail: `${who.join(' and ')} must not set runAsUser=0` } : null;
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    since: 19,
    overrides: ['seccompProfile_baseline'],
    check(pod, minor) {
      if (minor >= 25 && isWindows(pod)) return null;
      const badValues = new Set<string>();
      const podProfile = podContext(pod)?.seccompProfile;
      const podBad = podProfile != null && !validSeccomp(podProfile.type);
      if (podBad) badValues.add(String(podProfile.type ?? ''));
      const podSet = podProfile != null && !podBad;
      const explicit: string[] = [];
      const implicit: string[] = [];
      for (const c of containers(pod)) {
        const profile = c.securityContext?.seccompProfile;
        if (profile != null) {
          if (!validSeccomp(profile.type)) {
            explicit.push(c.name);
            badValues.add(String(profile.type ?? ''));
          }
        } else if (!podSet) implicit.push(c.name);
      }
      const who = setters(podBad, explicit);
      if (who.length) return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sorted(badValues))}` };
      if (implicit.length) return { reason: 'seccompProfile', detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
      return null;
    },
  },
];

// Baseline ids sorted, then restricted ids sorted (Go's byte order), as the registry orders them.
const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const ORDERED = [...CHECKS.filter((c) => c.level === 'baseline').sort(byId), ...CHECKS.filter((c) => c.level === 'restricted').sort(byId)];

/** The violations of a pod at a level and version, in the registry's order. */
export function evaluatePod(lv: LevelVersion, pod: KubeObject): Violation[] {
  if (lv.level === 'privileged') return [];
  const minor = lv.version === 'latest' ? NEWEST_POLICY_MINOR : Math.min(lv.version, NEWEST_POLICY_MINOR);
  const applicable = ORDERED.filter((c) => c.since <= minor && (lv.level === 'restricted' || c.level === 'baseline'));
  const overridden = new Set(lv.level === 'restricted' ? applicable.flatMap((c) => c.overrides ?? []) : []);
  return applicable
    .filter((c) => !overridden.has(c.id))
    .map((c) => c.check(pod, minor))
    .filter((v): v is Violation => v !== null);
}

/** "host namespaces (hostNetwork=true), privileged (...)": AggregateCheckResult.ForbiddenDetail. */
const describe = (violations: Violation[]) => violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');

export interface PodAdmission {
  /** The reason after `pods "NAME" is forbidden: `, when the enforce level refuses the pod. */
  forbidden: string | null;
  /** `Warning` texts (the warn level's). */
  warnings: string[];
}

/** A pod about to be created (or updated, see isSignificantPodUpdate) in this namespace. */
export function admitPod(namespace: KubeObject | undefined, pod: KubeObject): PodAdmission {
  const { policy } = namespacePolicy(namespace?.metadata.labels);
  const enforced = evaluatePod(policy.enforce, pod);
  if (enforced.length) return { forbidden: `violates PodSecurity "${levelVersionString(policy.enforce)}": ${describe(enforced)}`, warnings: [] };
  const warned = evaluatePod(policy.warn, pod);
  return { forbidden: null, warnings: warned.length ? [`would violate PodSecurity "${levelVersionString(policy.warn)}": ${describe(warned)}`] : [] };
}

/**
 * Whether a pod update is evaluated at all: only when it changes containers or their images
 * (the mutable, security-relevant part), as the admission plugin decides.
 */
export function isSignificantPodUpdate(next: KubeObject, current: KubeObject): boolean {
  const images = (pod: KubeObject, field: string) => ((pod.spec?.[field] ?? []) as Container[]).map((c) => c?.image);
  return ['containers', 'initContainers'].some((field) => JSON.stringify(images(next, field)) !== JSON.stringify(images(current, field)));
}

/**
 * A namespace's Pod Security labels when it is created or they change: bad values are refused
 * (422); a stricter enforce level warns about the existing pods that violate it, grouped by
 * reason, as kube-apiserver does. `pods`: the namespace's pods (none on create).
 */
export function admitNamespace(object: KubeObject, previous: KubeObject | undefined, pods: KubeObject[]): string[] {
  const { policy, errors } = namespacePolicy(object.metadata.labels);
  if (errors.length) {
    const before = previous ? namespacePolicy(previous.metadata.labels).errors : [];
    if (!previous || JSON.stringify(before) !== JSON.stringify(errors)) throw invalid('Namespace', '', object.metadata.name, errors);
  }
  if (!previous) return [];
  const old = namespacePolicy(previous.metadata.labels).policy.enforce;
  const enforce = policy.enforce;
  if (enforce.level === old.level && enforce.version === old.version) return [];
  if (enforce.level === 'privileged') return [];
  if (enforce.version === old.version && LEVELS.indexOf(enforce.level) <= LEVELS.indexOf(old.level)) return [];
  const byReason = new Map<string, { name: string; count: number }>();
  const order: string[] = [];
  for (const pod of pods) {
    const violations = evaluatePod(enforce, pod);
    if (!violations.length) continue;
    const reason = violations.map((v) => v.reason).join(', ');
    const seen = byReason.get(reason);
    if (!seen) {
      byReason.set(reason, { name: pod.metadata.name, count: 1 });
      order.push(reason);
    } else {
      seen.count++;
      if (pod.metadata.name < seen.name) seen.name = pod.metadata.name;
    }
  }
  if (!order.length) return [];
  const podWarnings = order
    .map((reason) => {
      const { name, count } = byReason.get(reason)!;
      if (count === 1) return `${name}: ${reason}`;
      return `${name} (and ${count - 1} other ${pluralize('pod', 'pods', count - 1)}): ${reason}`;
    })
    .sort();
  return [`existing pods in namespace ${JSON.stringify(object.metadata.name)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`, ...podWarnings];
}

/** The HTTP `Warning` header value kube-apiserver sends: `299 - "text"` with `"` and `\` escaped. */
export const warningHeader = (text: string) => `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
