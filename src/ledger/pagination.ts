// Link safety for `links.next`: only relative links or links on the configured origin are followed, always
// under /api/v1/, and a link equal to the current request stops the walk (docs/ledger-api.md §11.4, 17).
import { ForeignLinkError, MalformedResponseError, SelfLinkError } from './errors.js';

export interface Base {
  /** `scheme://host:port` of the query service. */
  readonly origin: string;
  /** A path prefix of the configured base URL (a proxy mount), '' for none. */
  readonly prefix: string;
}

export function parseBase(baseUrl: string): Base {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError(`base URL ${baseUrl} must be http or https`);
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

/** The service path (`/api/v1/...?...`) of a link, or an error when it must not be followed. */
export function resolveLink(base: Base, link: string, current: string): string {
  const url = new URL(link, base.origin);
  if (url.origin !== base.origin) throw new ForeignLinkError(link, base.origin);
  let path = url.pathname;
  if (base.prefix !== '' && path.startsWith(`${base.prefix}/`)) path = path.slice(base.prefix.length);
  if (!path.startsWith('/api/v1/'))
    throw new MalformedResponseError(current, `next link "${link}" is outside /api/v1/`);
  const resolved = `${path}${url.search}`;
  if (resolved === current) throw new SelfLinkError(link);
  return resolved;
}

/** What goes on the wire for a service path. */
export function requestPath(base: Base, path: string): string {
  return `${base.prefix}${path}`;
}
