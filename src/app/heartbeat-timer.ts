// The heartbeat (self-monitor/heartbeat.ts) of a runtime: it runs where the runtime runs — the leader in HA,
// so one replica pings — and measures health with the readiness checks (/readyz) that concern alerting: the
// query service answered within self_monitoring.query_service_down_after, a poll completed, delivery works.
import type { PauseBoard } from '../delivery/pause-board.js';
import type { TailHealth } from '../pipeline/tail-loop.js';
import { createHeartbeat, type HeartbeatHealth } from '../self-monitor/heartbeat.js';
import type { Config } from './config/schema.js';
import { readinessChecks } from './readiness.js';
import type { HeartbeatTimer, RuntimeParts, Shared } from './runtime-parts.js';

const CHECKS = ['poll', 'query_service', 'delivery'];

export function startHeartbeat(shared: Shared, parts: () => RuntimeParts): HeartbeatTimer | undefined {
  const config = parts().loaded.config.heartbeat;
  if (!config) return undefined;
  const health = () => {
    const { loaded, delivery } = parts();
    return alertingHealth({
      tail: shared.health,
      clock: shared.clock,
      pauses: shared.pauses,
      config: loaded.config,
      lastPassAt: delivery.worker.lastPassAt(),
    });
  };
  const heartbeat = createHeartbeat({
    config,
    health,
    metrics: shared.metrics,
    log: shared.log.child({ component: 'heartbeat' }),
  });
  const timer = setInterval(() => void heartbeat.beat(), config.interval);
  return { key: JSON.stringify(config), stop: () => clearInterval(timer) };
}

export interface AlertingHealthInputs {
  readonly tail: TailHealth;
  readonly clock: () => number;
  readonly pauses: Pick<PauseBoard, 'list'>;
  readonly config: Pick<Config, 'self_monitoring' | 'notifiers'>;
  readonly lastPassAt: number | undefined;
}

/** The readiness checks about alerting, as the heartbeat's health. */
export function alertingHealth(inputs: AlertingHealthInputs): HeartbeatHealth {
  const { config } = inputs;
  const checks = readinessChecks({
    configLoaded: () => true,
    stateOpen: () => true,
    health: () => inputs.tail,
    boundMs: () => config.self_monitoring.query_service_down_after,
    clock: inputs.clock,
    delivery: () => ({
      lastPassAt: inputs.lastPassAt,
      pauses: inputs.pauses.list(),
      notifiers: Object.keys(config.notifiers),
      pausedAfterMs: config.self_monitoring.delivery_paused_after,
    }),
  });
  const problems = CHECKS.flatMap((name) => {
    const check = checks[name];
    return check && !check.ok ? [`${name}: ${check.message}`] : [];
  });
  return { ok: problems.length === 0, problems };
}
