// Who may read and who may change: the one decision the HTTP server (http-server.ts) takes for every request
// before any handler runs (docs/api.md, "Security"). A request is authenticated by `Authorization: Bearer
// <http.api_token>` or by the session cookie the login form (login-route.ts) sets. The cookie never holds the
// token: it holds `v1.<issued ms>.<nonce>.<HMAC-SHA256(token, issued.nonce)>`, so it is checked without any
// server-side table (every HA replica with the same token accepts it), it expires, and a new token ends every
// session. The CSRF token of the page's forms is an HMAC of the session, so it is per session too.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What the server needs from the `http:` config section, read on each request (a reload may change it). */
export interface HttpAuth {
  /** http.api_token; without it nothing can log in and state-changing calls are disabled. */
  readonly token?: string;
  /** http.api_read_auth: every view of the data needs the token (or the session). */
  readonly readAuth: boolean;
  /** http.cookie_secure: the session cookie is sent over HTTPS only (set it behind a TLS proxy). */
  readonly secureCookie: boolean;
}

export const SESSION_COOKIE = 'ls_session';
/** A session lasts this long; then the login form is shown again. */
export const SESSION_MS = 12 * 3600 * 1000;

/** Paths that answer without a token whatever `api_read_auth` says: probes, metrics, the login form. */
export const OPEN_PATHS: ReadonlySet<string> = new Set([
  '/healthz',
  '/readyz',
  '/metrics',
  '/-/healthy',
  '/-/ready',
  '/login',
  '/logout',
  '/favicon.ico',
]);

/** Constant-time equality of two strings (both hashed first, so length and content leak nothing). */
export function sameSecret(given: string, wanted: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(wanted).digest();
  return timingSafeEqual(a, b);
}

/** Whether the request carries `Authorization: Bearer <token>`. */
export function bearerMatches(req: IncomingMessage, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return sameSecret(m?.[1]?.trim() ?? '', token) && m !== null;
}

function mac(token: string, data: string): string {
  return createHmac('sha256', token).update(data).digest('base64url');
}

/** A new session value for the cookie (never the token itself). */
export function newSession(token: string, now: number): string {
  const body = `${now}.${randomBytes(16).toString('base64url')}`;
  return `v1.${body}.${mac(token, `session:${body}`)}`;
}

/** The request's valid, unexpired session value, or undefined. */
export function sessionOf(req: IncomingMessage, token: string | undefined, now: number): string | undefined {
  if (token === undefined) return undefined;
  const value = cookieValue(req.headers.cookie ?? '', SESSION_COOKIE);
  const m = value === undefined ? null : /^v1\.(\d{1,15})\.([\w-]{1,64})\.([\w-]{43})$/.exec(value);
  if (!m) return undefined;
  const issued = Number(m[1]);
  if (!(issued <= now + 60_000 && now - issued < SESSION_MS)) return undefined;
  return sameSecret(m[3] ?? '', mac(token, `session:${m[1]}.${m[2]}`)) ? value : undefined;
}

/** The CSRF token the page's forms carry for this session. */
export function csrfToken(token: string, session: string): string {
  return mac(token, `csrf:${session}`);
}

/** Bearer token or a valid session cookie. */
export function authenticated(req: IncomingMessage, auth: HttpAuth, now: number): boolean {
  if (auth.token === undefined) return false;
  return bearerMatches(req, auth.token) || sessionOf(req, auth.token, now) !== undefined;
}

/** The read-auth decision for one path: true when it may be answered. */
export function mayRead(req: IncomingMessage, path: string, auth: HttpAuth, now: number): boolean {
  return OPEN_PATHS.has(path) || !auth.readAuth || authenticated(req, auth, now);
}

/** Set-Cookie for a new session, or to end one (`value` undefined). */
export function sessionCookie(value: string | undefined, secure: boolean): string {
  const attrs = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])];
  const age = value === undefined ? 0 : Math.floor(SESSION_MS / 1000);
  return [`${SESSION_COOKIE}=${value ?? ''}`, `Max-Age=${age}`, ...attrs].join('; ');
}

/**
 * A browser's form post comes from this server: an `Origin` (or, without one, a `Referer`) whose host is the
 * request's `Host`. A request with neither is refused (browsers send Origin on every POST).
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const from = req.headers.origin ?? req.headers.referer;
  const host = req.headers.host;
  if (typeof from !== 'string' || host === undefined) return false;
  try {
    return new URL(from).host === host;
  } catch {
    return false;
  }
}

function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
