import type { UserRequest } from '../types';

// Its own module: the home names its pending team requests with it, without loading the
// profile's requests table.

/** What a request is about: a team's full and short names, or a workspace's name. */
export const requestObject = (request: UserRequest): string => {
  const object = request.object;
  if (!object) return '';
  if (object.fullname || object.shortname) {
    return object.fullname && object.shortname ? `${object.fullname} (${object.shortname})` : String(object.fullname || object.shortname);
  }
  return object.name || object.label || '';
};
