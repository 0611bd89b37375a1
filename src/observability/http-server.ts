// The daemon's own HTTP endpoints: / (the status page, HTML), /metrics (Prometheus text), /healthz (alive),
// /readyz (ready to alert), read-only JSON views of its state (e.g. /quarantine) that the composition root hands
// in, and the runtime API (/api/v1, /-/, the login form and the page's forms), which it delegates.
//
// Every request meets one read-auth decision first (http-auth.ts `mayRead`): with `http.api_read_auth` only the
// open paths (probes, /metrics, the login form) answer without the token or a session, whatever handler would
// serve the path, so a route added later cannot forget it. State-changing calls need the token as well, checked
// by the handler that reads their body (api/api-router.ts, api/page-actions.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { mayRead, type HttpAuth } from './http-auth.js';
import { loginPage, serveHtml, viewerOf, type HtmlPage, type Viewer } from './html-route.js';

export interface ReadinessCheck {
  readonly ok: boolean;
  readonly message: string;
}

export interface HttpServerOptions {
  readonly host: string;
  readonly port: number;
  readonly registry: Registry;
  /** Named readiness checks; /readyz is 200 only when every one is ok. */
  readonly readiness: () => Readonly<Record<string, ReadinessCheck>>;
  /** Read-only JSON views by path, e.g. `/quarantine`: nothing secret, nothing that changes state. */
  readonly views?: Readonly<Record<string, () => unknown>>;
  /** The status page at `/` (html-route.ts); it gets the request too (its forms carry the session's CSRF token). */
  readonly statusPage?: HtmlPage;
  /** The runtime API (api/api-router.ts): takes /api/, /-/ and its other paths (any method) and answers them. */
  readonly api?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The token and whether reads need it (http.api_token, http.api_read_auth); default: open reads, no token. */
  readonly auth?: () => HttpAuth;
  readonly clock?: () => number;
}

export interface RunningHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

const NO_AUTH: HttpAuth = { readAuth: false, secureCookie: false };

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const clock = options.clock ?? Date.now;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const auth = options.auth?.() ?? NO_AUTH;
    if (!mayRead(req, path, auth, clock())) return refuse(req, res, path);
    if (options.api?.(req, res)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    serveGet(options, req, res, path, () => viewerOf(req, auth, clock()));
  });
  await listen(server, options.host, options.port);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () => closeServer(server),
  };
}

function serveGet(
  options: HttpServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  viewer: () => Viewer,
): void {
  if (path === '/metrics') {
    options.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n'),
    );
    return;
  }
  if (path === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    return;
  }
  if (path === '/readyz') {
    const checks = options.readiness();
    const ready = Object.values(checks).every((c) => c.ok);
    res
      .writeHead(ready ? 200 : 503, { 'content-type': 'application/json' })
      .end(`${JSON.stringify({ ready, checks })}\n`);
    return;
  }
  if (options.statusPage && (path === '/' || path === '/favicon.ico')) {
    serveHtml(res, path, req.url ?? '/', options.statusPage, viewer());
    return;
  }
  const view = Object.hasOwn(options.views ?? {}, path) ? options.views?.[path] : undefined;
  if (view) {
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(`${JSON.stringify(view())}\n`);
    return;
  }
  const known = [
    ...(options.statusPage ? ['/'] : []),
    '/metrics',
    '/healthz',
    '/readyz',
    ...Object.keys(options.views ?? {}),
  ];
  res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: try ${known.join(', ')}\n`);
}

/** 401 without detail: JSON for the API, the login form for a browser's GET of a page. */
function refuse(req: IncomingMessage, res: ServerResponse, path: string): void {
  req.resume();
  const api = path.startsWith('/api/') || path.startsWith('/-/') || path.endsWith('.json');
  if (!api && req.method === 'GET' && (req.headers.accept ?? '').includes('text/html')) {
    loginPage(res, 401, 'needed');
    return;
  }
  res
    .writeHead(401, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'www-authenticate': 'Bearer',
    })
    .end(
      `${JSON.stringify({ error: 'http.api_read_auth is on: send Authorization: Bearer <token> (http.api_token_file), or log in at /login' })}\n`,
    );
}

/** How long a request still being answered at close may finish before its connection is cut. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Stops listening, ends idle keep-alive connections at once and cuts the ones still busy after CLOSE_GRACE_MS, so
 * that a client holding a connection open can never hold the process's exit up.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
