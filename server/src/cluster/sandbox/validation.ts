import type { ResourceType } from './resources.js';
import { invalid, type StatusCause } from './status.js';
import type { KubeObject } from './store.js';

// Object validation as kube-apiserver's registry strategies do it, for the fields the sandbox
// uses: names, pod containers, role binding subjects, secret data.

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function validate(type: ResourceType, object: KubeObject) {
  const causes: StatusCause[] = [];
  const name = object.metadata.name ?? '';
  const required = (field: string) => causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
  const bad = (field: string, value: string, message: string) =>
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${message}`, field });
  if (!name) {
    if (!object.metadata.generateName) causes.push({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
  } else if (type.resource === 'namespaces') {
    if (!DNS_LABEL.test(name) || name.length > 63)
      bad('metadata.name', name, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  } else if (type.group === 'rbac.authorization.k8s.io') {
    if (name === '.' || name === '..' || /[/%]/.test(name)) bad('metadata.name', name, 'may not contain \'/\' or \'%\'');
  } else if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
    bad('metadata.name', name, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }
  if (type.resource === 'pods') {
    const containers = object.spec?.containers;
    if (!Array.isArray(containers) || containers.length === 0) required('spec.containers');
    else {
      const seen = new Set<string>();
      containers.forEach((c: KubeObject, i: number) => {
        if (!c?.name) required(`spec.containers[${i}].name`);
        else if (!DNS_LABEL.test(c.name)) bad(`spec.containers[${i}].name`, c.name, 'a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\'');
        else if (seen.has(c.name)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(c.name)}`, field: `spec.containers[${i}].name` });
        else seen.add(c.name);
        if (!c?.image) required(`spec.containers[${i}].image`);
      });
    }
  }
  if (type.resource === 'rolebindings' || type.resource === 'clusterrolebindings') {
    if (!object.roleRef?.kind) required('roleRef.kind');
    if (!object.roleRef?.name) required('roleRef.name');
    (object.subjects ?? []).forEach((s: KubeObject, i: number) => {
      if (!['ServiceAccount', 'User', 'Group'].includes(String(s?.kind))) bad(`subjects[${i}].kind`, String(s?.kind ?? ''), 'supported values: "Group", "ServiceAccount", "User"');
      if (!s?.name) required(`subjects[${i}].name`);
    });
  }
  if (type.resource === 'secrets' && object.data) {
    for (const [key, value] of Object.entries(object.data)) {
      if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) bad(`data[${key}]`, '<secret contents redacted>', 'must be base64-encoded');
    }
  }
  if (causes.length) throw invalid(type.kind, type.group, name, causes);
}
