// Kubernetes Status objects (metav1.Status) and the error that carries one.

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export function statusBody(code: number, reason: string, message: string, details?: StatusDetails) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  get body() {
    return statusBody(this.code, this.reason, this.message, this.details);
  }
}

const kindDetails = (resource: string, group: string, name?: string): StatusDetails => ({
  ...(name !== undefined ? { name } : {}),
  ...(group ? { group } : {}),
  kind: resource,
});

const qualified = (resource: string, group: string) => (group ? `${resource}.${group}` : resource);

export const notFound = (resource: string, group: string, name: string) =>
  new ApiError(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, kindDetails(resource, group, name));

export const routeNotFound = () => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (resource: string, group: string, name: string) =>
  new ApiError(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, kindDetails(resource, group, name));

export const conflict = (resource: string, group: string, name: string, message: string) =>
  new ApiError(409, 'Conflict', message, kindDetails(resource, group, name));

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);

export const unauthorized = () => new ApiError(401, 'Unauthorized', 'Unauthorized');

export const forbidden = (message: string, resource: string, group: string, name?: string) =>
  new ApiError(403, 'Forbidden', message, kindDetails(resource, group, name));

export const methodNotAllowed = (method: string) =>
  new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, { causes: [{ reason: 'MethodNotAllowed', message: method, field: '' }] });

export const unsupportedMediaType = (type: string) =>
  new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/merge-patch+json, application/strategic-merge-patch+json, application/json-patch+json (got ${type})`);

export function invalid(kind: string, group: string, name: string, causes: StatusCause[]) {
  const summary = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, { name, ...(group ? { group } : {}), kind, causes });
}
