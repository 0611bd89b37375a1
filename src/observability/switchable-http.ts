// One HTTP server for a process whose app is replaced while it runs (an ha replica going from standby to leader,
// cli/run/run-replica.ts): the port stays bound, and each request goes to the handlers of the app that runs now.
// Between two apps /healthz stays 200 and /readyz answers 503 naming the switch, so a probe never meets a closed
// port and a load balancer holds back for that moment only.
import type { HttpServerOptions, RunningHttpServer } from './http-server.js';
import { startHttpServer } from './http-server.js';
import type { HttpAuth } from './http-auth.js';

export interface SwitchableHttp {
  /** Serves `options` (an app's handlers) until the handle returned is closed; the first call binds the port. */
  start(options: HttpServerOptions): Promise<RunningHttpServer>;
  /** Closes the server itself. */
  close(): Promise<void>;
}

export function switchableHttp(): SwitchableHttp {
  let current: HttpServerOptions | undefined;
  let server: Promise<RunningHttpServer> | undefined;

  let last: HttpAuth = { readAuth: true, secureCookie: false };

  function delegating(first: HttpServerOptions): HttpServerOptions {
    const views = Object.fromEntries(
      Object.keys(first.views ?? {}).map((path) => [path, () => current?.views?.[path]?.() ?? null]),
    );
    return {
      host: first.host,
      port: first.port,
      registry: first.registry,
      readiness: () =>
        current?.readiness() ?? { role: { ok: false, message: 'switching between standby and leader' } },
      views,
      statusPage: (query, viewer) =>
        current?.statusPage?.(query, viewer) ?? 'switching between standby and leader',
      api: (req, res) => current?.api?.(req, res) ?? false,
      // Between two apps the last app's decision holds: a gap never opens the data to anyone.
      auth: () => {
        if (current) last = current.auth?.() ?? { readAuth: false, secureCookie: false };
        return last;
      },
      ...(first.clock ? { clock: first.clock } : {}),
    };
  }

  return {
    async start(options) {
      current = options;
      server ??= startHttpServer(delegating(options));
      const { url } = await server;
      return {
        url,
        close: () => {
          if (current === options) current = undefined;
          return Promise.resolve();
        },
      };
    },
    async close() {
      current = undefined;
      const running = server;
      server = undefined;
      await (await running?.catch(() => undefined))?.close();
    },
  };
}
