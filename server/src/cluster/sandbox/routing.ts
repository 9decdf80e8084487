import { apiGroup, apiGroupList, apiResourceList, apiVersions, findResource, GROUPS, type ResourceType } from './resources.js';
import { methodNotAllowed, routeNotFound } from './status.js';

// Request paths to resources, HTTP methods to verbs, and the discovery documents.

export interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

export function route(segments: string[]): Route | 'discovery' {
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api') {
    if (segments.length === 1) return 'discovery';
    [group, version, rest] = ['', segments[1], segments.slice(2)];
  } else if (segments[0] === 'apis') {
    if (segments.length <= 2) return 'discovery';
    [group, version, rest] = [segments[1], segments[2], segments.slice(3)];
  } else throw routeNotFound();
  if (rest.length === 0) return 'discovery';
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const nested = findResource(group, version, rest[2]);
    if (nested?.namespaced) {
      if (rest.length > 5) throw routeNotFound();
      return { type: nested, namespace: rest[1], name: rest[3], subresource: rest[4] };
    }
  }
  const type = findResource(group, version, rest[0]);
  if (!type || rest.length > 3) throw routeNotFound();
  if (type.namespaced && rest.length > 1) throw routeNotFound();
  return { type, name: rest[1], subresource: rest[2] };
}

export function discovery(segments: string[], serverAddress: string) {
  if (segments.length === 1) return segments[0] === 'api' ? apiVersions(serverAddress) : apiGroupList();
  if (segments[0] === 'apis' && segments.length === 2) {
    if (!GROUPS.includes(segments[1])) throw routeNotFound();
    return apiGroup(segments[1]);
  }
  const list = segments[0] === 'api' ? apiResourceList('', segments[1]) : apiResourceList(segments[1], segments[2]);
  if (!list) throw routeNotFound();
  return list;
}

export function verbOf(method: string, r: Route, query: URLSearchParams): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (query.get('watch') === 'true' || query.get('watch') === '1') return 'watch';
      return r.name ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return r.name ? 'delete' : 'deletecollection';
    default:
      throw methodNotAllowed(method);
  }
}
