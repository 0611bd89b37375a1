// The daemon's runtime API (docs/api.md): /api/v1/alerts, /api/v1/silences, acks, and Prometheus' /-/healthy,
// /-/ready and /-/reload. http-server.ts hands it every /api/ and /-/ request.
//
// Security: a state-changing request needs `Authorization: Bearer <http.api_token>`; with no token configured those
// endpoints answer 403 (disabled, not open). Reads need the token only with `http.api_read_auth`. Bodies are
// bounded and validated (http-io.ts). Nothing secret is in any answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpConfig } from '../config/sections/http.js';
import type { AckStore } from '../delivery/ack-store.js';
import type { AlertView } from '../delivery/alert-view.js';
import type { Silence } from '../notifiers/schema.js';
import type { SilenceStore } from '../delivery/silence-store.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { ReadinessCheck } from '../observability/http-server.js';
import { AckBody, ackAlert, alertFilter } from './alerts-api.js';
import { HttpError, bearerMatches, httpAuth, readJson, sendJson } from './http-io.js';
import { authenticated } from '../observability/http-auth.js';
import { SilenceBody, addSilence, configSilenceJson, silenceJson } from './silences-api.js';

export interface ApiDeps {
  readonly silences: SilenceStore;
  readonly acks: AckStore;
  readonly alerts: AlertView;
  readonly configSilences: () => readonly Silence[];
  /** The label names alerts can carry now (delivery/known-labels.ts): a silence on another is refused. */
  readonly knownLabels: () => readonly string[];
  /** The current `http:` section (the token may change on reload). */
  readonly http: () => HttpConfig;
  readonly readiness: () => Readonly<Record<string, ReadinessCheck>>;
  /** The daemon's reload (SIGHUP's): true when the new config was applied. */
  readonly reload: () => Promise<boolean>;
  readonly clock: () => number;
  readonly log: Logger;
  readonly metrics: Pick<Metrics, 'apiRequests'>;
}

/** Handles /api/ and /-/ requests; false for any other path (the caller answers those). */
export type ApiRouter = (req: IncomingMessage, res: ServerResponse) => boolean;

type Access = 'open' | 'read' | 'write';

type Handler = (req: IncomingMessage, params: string[], url: URL) => Promise<[number, unknown]>;

interface Route {
  readonly method: string;
  readonly path: RegExp;
  /** open: probes (/-/healthy, /-/ready); read: token with api_read_auth; write: always the token. */
  readonly access: Access;
  readonly handler: Handler;
}

export function createApiRouter(deps: ApiDeps): ApiRouter {
  const routes = apiRoutes(deps);
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!path.startsWith('/api/') && !path.startsWith('/-/')) return false;
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendJson(res, 400, { error: 'malformed request URL' });
      return true;
    }
    const matching = routes.filter((r) => r.path.test(url.pathname));
    const route = matching.find(
      (r) => r.method === req.method || (r.method === 'GET' && req.method === 'HEAD'),
    );
    const answer = (status: number, body: unknown, headers?: Record<string, string>) => {
      deps.metrics.apiRequests.inc({ method: req.method ?? '', code: String(status) });
      sendJson(res, status, body, headers);
    };
    if (!route) {
      if (matching.length === 0) answer(404, { error: `not found: ${url.pathname} (see docs/api.md)` });
      else
        answer(
          405,
          { error: `method ${req.method} not allowed` },
          { allow: matching.map((r) => r.method).join(', ') },
        );
      req.resume();
      return true;
    }
    const denied = authProblem(req, route.access, deps.http(), deps.clock());
    if (denied) {
      req.resume();
      answer(
        denied.status,
        { error: denied.message },
        denied.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
      );
      return true;
    }
    Promise.resolve()
      .then(() => route.handler(req, pathParams(route, url), url))
      .then(
        ([status, body]) => answer(status, body),
        (err: unknown) => {
          // A body refused unread (too large, too slow) is not drained: the connection closes after the answer.
          const close = err instanceof HttpError && (err.status === 413 || err.status === 408);
          if (err instanceof HttpError)
            return answer(err.status, { error: err.message }, close ? { connection: 'close' } : {});
          deps.log.error({ err, path: url.pathname }, 'api request failed');
          answer(500, { error: 'internal error; see the daemon log' });
        },
      );
    return true;
  };
}

/** The path's captured segments, percent-decoded (a malformed escape is a 400, not a crash). */
function pathParams(route: Route, url: URL): string[] {
  try {
    return (route.path.exec(url.pathname) ?? []).slice(1).map((p) => decodeURIComponent(p));
  } catch {
    throw new HttpError(400, 'malformed percent-encoding in the path');
  }
}

function authProblem(
  req: IncomingMessage,
  access: Access,
  http: HttpConfig,
  now: number,
): HttpError | undefined {
  if (access === 'open') return undefined;
  const token = http.api_token;
  if (access === 'write' && token === undefined)
    return new HttpError(
      403,
      'state-changing API endpoints are disabled: set http.api_token_file in the config (docs/api.md)',
    );
  if (access === 'read' && !http.api_read_auth) return undefined;
  // A read may come from the page's session cookie; a write to the JSON API needs the bearer token itself.
  if (access === 'read' && authenticated(req, httpAuth(http), now)) return undefined;
  if (token !== undefined && bearerMatches(req, token)) return undefined;
  return new HttpError(
    401,
    'missing or wrong bearer token: send Authorization: Bearer <token> (http.api_token_file)',
  );
}

/** Every route (method, path pattern, access) without its handler: what a test enumerates. */
export function apiRouteTable(deps: ApiDeps): readonly Omit<Route, 'handler'>[] {
  return apiRoutes(deps).map(({ method, path, access }) => ({ method, path, access }));
}

// One table of routes, by area: each handler is a line or two over the stores.
function apiRoutes(deps: ApiDeps): Route[] {
  return [...daemonRoutes(deps), ...alertRoutes(deps), ...silenceRoutes(deps)];
}

function route(method: string, path: RegExp, access: Access, handler: Handler): Route {
  return { method, path, access, handler };
}

/** The daemon's own endpoints: health, readiness, reload. */
function daemonRoutes(deps: ApiDeps): Route[] {
  return [
    route('GET', /^\/-\/healthy$/, 'open', async () => [200, { status: 'healthy' }]),
    route('GET', /^\/-\/ready$/, 'open', async () => {
      const checks = deps.readiness();
      const ready = Object.values(checks).every((c) => c.ok);
      return [ready ? 200 : 503, { ready, checks }];
    }),
    route('POST', /^\/-\/reload$/, 'write', async (req) => {
      req.resume();
      const ok = await deps.reload();
      return ok
        ? [200, { reloaded: true }]
        : [
            500,
            {
              error:
                'config reload rejected: the daemon log names every problem; the old config keeps running',
            },
          ];
    }),
  ];
}

function alertRoutes(deps: ApiDeps): Route[] {
  const { acks, alerts, clock } = deps;
  return [
    route('GET', /^\/api\/v1\/alerts$/, 'read', async (_req, _p, url) => [
      200,
      alerts.list(alertFilter(url.searchParams)),
    ]),
    route('GET', /^\/api\/v1\/alerts\/([^/]+)$/, 'read', async (_req, [id = '']) => {
      const alert = alerts.find(id);
      if (!alert)
        throw new HttpError(404, `no alert ${JSON.stringify(id)}: list them with GET /api/v1/alerts`);
      return [200, alert];
    }),
    route('POST', /^\/api\/v1\/alerts\/([^/]+)\/ack$/, 'write', async (req, [id = '']) => {
      const body = await readJson(req, AckBody);
      return [200, ackAlert(alerts, acks, id, body, clock())];
    }),
  ];
}

function silenceRoutes(deps: ApiDeps): Route[] {
  const { silences, clock } = deps;
  return [
    route('GET', /^\/api\/v1\/silences$/, 'read', async () => {
      const now = clock();
      const stored = silences.list().map((s) => silenceJson(s, now));
      return [200, [...deps.configSilences().map((s, i) => configSilenceJson(s, i, now)), ...stored]];
    }),
    route('POST', /^\/api\/v1\/silences$/, 'write', async (req) => {
      const silence = addSilence(silences, await readJson(req, SilenceBody), clock(), deps.knownLabels());
      deps.log.info({ silence: silence.id, createdBy: silence.createdBy }, 'silence created');
      return [200, { silenceID: silence.id }];
    }),
    route('GET', /^\/api\/v1\/silences\/([^/]+)$/, 'read', async (_req, [id = '']) => {
      const now = clock();
      const index = /^config:(\d+)$/.exec(id)?.[1];
      const config = index === undefined ? undefined : deps.configSilences()[Number(index)];
      const stored = silences.get(id);
      if (config) return [200, configSilenceJson(config, Number(index), now)];
      if (!stored) throw new HttpError(404, `no silence ${JSON.stringify(id)}`);
      return [200, silenceJson(stored, now)];
    }),
    route('DELETE', /^\/api\/v1\/silences\/([^/]+)$/, 'write', async (req, [id = '']) => {
      req.resume();
      if (id.startsWith('config:'))
        throw new HttpError(409, `silence ${id} comes from the config file: remove it there and reload`);
      if (!silences.expire(id)) throw new HttpError(404, `no silence ${JSON.stringify(id)}`);
      deps.log.info({ silence: id }, 'silence expired');
      return [200, { expired: id }];
    }),
  ];
}
