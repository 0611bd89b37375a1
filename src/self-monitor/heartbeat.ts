// The heartbeat: one ping per call of beat(), sent only while the daemon is healthy (the readiness checks that
// say the tail is fresh and delivery works). A change of state (ok, unhealthy, failing) is logged once, not every
// interval; every ping is counted. The URL is a secret: errors name the status code or the network error code,
// never the URL, and redirects are not followed (they could carry the token to another origin).
import { request } from 'undici';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { HeartbeatConfig } from './heartbeat-config.js';

export interface HeartbeatHealth {
  readonly ok: boolean;
  /** What is wrong, for the log and the `/fail` ping's body. */
  readonly problems: readonly string[];
}

export interface HeartbeatDeps {
  readonly config: HeartbeatConfig;
  readonly health: () => HeartbeatHealth;
  readonly metrics: Pick<Metrics, 'heartbeats'>;
  readonly log: Logger;
}

export interface Heartbeat {
  /** One ping (or none, when unhealthy and on_unhealthy is skip); never throws. A beat still running is not doubled. */
  beat(): Promise<void>;
}

type State = 'ok' | 'unhealthy' | 'failing';

export function createHeartbeat(deps: HeartbeatDeps): Heartbeat {
  let state: State | undefined;
  let running: Promise<void> | undefined;
  const change = (next: State, fields: Record<string, unknown>, message: string) => {
    if (state !== next) deps.log[next === 'ok' ? 'info' : 'warn'](fields, message);
    state = next;
  };
  async function once(): Promise<void> {
    const health = deps.health();
    const { config } = deps;
    if (!health.ok && config.on_unhealthy === 'skip') {
      deps.metrics.heartbeats.inc({ outcome: 'skipped' });
      change('unhealthy', { problems: health.problems }, 'heartbeat held: the daemon is not healthy');
      return;
    }
    const problem = await ping(config, health);
    if (problem) {
      deps.metrics.heartbeats.inc({ outcome: 'error' });
      change('failing', { problem }, `heartbeat ping failed: ${problem}; check heartbeat.url`);
    } else if (!health.ok) {
      deps.metrics.heartbeats.inc({ outcome: 'fail' });
      change(
        'unhealthy',
        { problems: health.problems },
        'heartbeat reported failure: the daemon is not healthy',
      );
    } else {
      deps.metrics.heartbeats.inc({ outcome: 'ok' });
      change('ok', {}, state === undefined ? 'heartbeat pinging' : 'heartbeat pinging again');
    }
  }
  return {
    beat() {
      running ??= once().finally(() => (running = undefined));
      return running;
    },
  };
}

/** Undefined when the receiver answered 2xx; otherwise what went wrong, without the URL. */
async function ping(config: HeartbeatConfig, health: HeartbeatHealth): Promise<string | undefined> {
  const url = health.ok ? config.url : failUrl(config.url);
  const body =
    config.method === 'POST' ? JSON.stringify({ healthy: health.ok, problems: health.problems }) : undefined;
  try {
    const response = await request(url, {
      method: config.method,
      ...(body === undefined ? {} : { body }),
      headers: {
        'user-agent': 'ledger-sentinel-heartbeat',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(config.authorization ? { authorization: config.authorization } : {}),
      },
      headersTimeout: config.timeout,
      bodyTimeout: config.timeout,
      signal: AbortSignal.timeout(config.timeout),
    });
    await response.body.dump();
    const status = response.statusCode;
    if (status >= 200 && status < 300) return undefined;
    if (status >= 300 && status < 400)
      return `HTTP ${status}: the URL redirects, and redirects are not followed`;
    return `HTTP ${status}`;
  } catch (err) {
    return networkProblem(err);
  }
}

/** Healthchecks' failure signal: `<url>/fail`, the query string kept. */
export function failUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/fail`;
  return parsed.toString();
}

function networkProblem(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'timed out';
  const code =
    (err as { code?: unknown; cause?: { code?: unknown } }).code ??
    (err as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? `network error ${code}` : 'network error';
}
