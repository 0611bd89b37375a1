// The embedded ledger query service on node:http. `createSimulatorServer` returns a plain request handler
// (compose it: faults, logging, extra services); `startSimulator` listens on 127.0.0.1 and returns its URL.
//
// Routes see the path after `pathPrefix`; links and Link headers use the full path as sent, so one process can
// serve several services under different prefixes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorStore } from './store.js';
import { defaultSimulatorConfig, type SimulatorConfig } from './config.js';
import { errorResponse, type RouteResponse } from './response.js';
import { transactionsRoute } from './routes/transactions.js';
import { rewardsRoute } from './routes/rewards.js';
import { actionsRoute } from './routes/actions.js';
import { accountRoute } from './routes/account.js';
import { balancesRoute } from './routes/balances.js';
import { tokenBalancesRoute, tokenRoute } from './routes/tokens.js';
import type { Route, RouteRequest } from './route.js';

export type { SimulatorConfig } from './config.js';
export type { RouteResponse } from './response.js';
export type { Route, RouteRequest } from './route.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface SimulatorHandler extends RequestHandler {
  /** Runs a request in-process, without HTTP (benchmarks, tests). */
  dispatch(method: string, url: string, req?: IncomingMessage): Promise<RouteResponse>;
}

export interface SimulatorServerOptions {
  readonly store: SimulatorStore;
  /** Read on every request, so it may be changed while running. Defaults: defaultSimulatorConfig(). */
  readonly config?: SimulatorConfig;
  /** Mount point, e.g. `/mirror`; default none. */
  readonly pathPrefix?: string;
  /** Added after the three built-in routes. */
  readonly extraRoutes?: readonly Route[];
}

/** What the service's Express middleware sends on 2xx when a route sets nothing else. */
export const DEFAULT_CACHE_CONTROL = 'public, max-age=1';

/** The ledger routes (0.129 plus the balance and token routes of the current line), in matching order (the account route is what resolves configured aliases). */
export const LEDGER_ROUTES: readonly Route[] = [
  transactionsRoute,
  rewardsRoute,
  actionsRoute,
  accountRoute,
  balancesRoute,
  tokenRoute,
  tokenBalancesRoute,
];

export function createSimulatorServer(options: SimulatorServerOptions): SimulatorHandler {
  const config = options.config ?? defaultSimulatorConfig();
  const prefix = (options.pathPrefix ?? '').replace(/\/$/, '');
  const compiled = [...LEDGER_ROUTES, ...(options.extraRoutes ?? [])].map(compileRoute);

  async function dispatch(method: string, url: string, req?: IncomingMessage): Promise<RouteResponse> {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    if (!path.startsWith(prefix)) return errorResponse(404, ['Not found']);
    const routePath = path.slice(prefix.length).replace(/(.)\/$/, '$1');
    for (const route of compiled) {
      // Express answers HEAD with the GET route.
      if (route.route.method !== (method === 'HEAD' ? 'GET' : method)) continue;
      const params = route.match(routePath);
      if (params === null) continue;
      const request: RouteRequest = {
        method,
        path,
        routePath,
        rawQuery,
        params,
        store: options.store,
        config,
        nowNs: config.now(),
        ...(req === undefined ? {} : { req }),
      };
      const response = await route.route.handle(request);
      const { cacheControl } = route.route;
      return withCacheControl(response, cacheControl === undefined ? DEFAULT_CACHE_CONTROL : cacheControl);
    }
    return errorResponse(404, ['Not found']);
  }

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    dispatch(req.method ?? 'GET', req.url ?? '/', req)
      .catch(() => errorResponse(500, ['Internal error']))
      .then((response) => send(res, response, req.method === 'HEAD'))
      // A response that cannot be written (e.g. a header Node refuses) ends the connection, never the process.
      .catch(() => res.destroy());
  }) as SimulatorHandler;
  handler.dispatch = dispatch;
  return handler;
}

export interface StartSimulatorOptions extends SimulatorServerOptions {
  readonly host?: string;
  readonly port?: number;
  /** Wraps the handler before it is mounted (fault injection, logging). */
  readonly wrap?: (handler: RequestHandler) => RequestHandler;
}

export interface RunningSimulator {
  /** Base URL without a trailing slash, prefix included: `http://127.0.0.1:PORT/mirror`. */
  readonly url: string;
  readonly origin: string;
  readonly server: Server;
  readonly handler: SimulatorHandler;
  close(): Promise<void>;
}

export async function startSimulator(options: StartSimulatorOptions): Promise<RunningSimulator> {
  const handler = createSimulatorServer(options);
  const server = createServer(options.wrap ? options.wrap(handler) : handler);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `${origin}${(options.pathPrefix ?? '').replace(/\/$/, '')}`,
    origin,
    server,
    handler,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

interface CompiledRoute {
  readonly route: Route;
  match(path: string): Record<string, string> | null;
}

function compileRoute(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  // Express routes are case-insensitive by default, and the service uses the default.
  const regex = new RegExp(`^${source}$`, 'i');
  return {
    route,
    match(path) {
      const found = regex.exec(path);
      if (!found) return null;
      const params: Record<string, string> = {};
      names.forEach((name, i) => (params[name] = safeDecode(found[i + 1] as string)));
      return params;
    },
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function withCacheControl(response: RouteResponse, cacheControl: string | null): RouteResponse {
  if (cacheControl === null || response.status < 200 || response.status > 299) return response;
  if (response.headers?.['cache-control'] !== undefined) return response;
  return { ...response, headers: { ...response.headers, 'cache-control': cacheControl } };
}

function send(res: ServerResponse, response: RouteResponse, headOnly: boolean): void {
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    ...response.headers,
    'content-length':
      typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.length,
  };
  res.writeHead(response.status, headers);
  res.end(headOnly ? undefined : response.body);
}
