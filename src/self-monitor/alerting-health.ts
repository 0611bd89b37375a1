// The heartbeat's health (heartbeat.ts): the readiness checks (/readyz, readiness.ts) that concern alerting — the
// query service answered within self_monitoring.query_service_down_after, a poll completed, delivery works.
import type { PauseBoard } from '../delivery/pause-board.js';
import type { TailHealth } from '../tail/loop/daemon-loop.js';
import type { HeartbeatHealth } from './heartbeat.js';
import { readinessChecks } from './readiness.js';
import type { SelfMonitoringConfig } from './self-monitoring-config.js';

const CHECKS = ['poll', 'query_service', 'delivery'];

export interface AlertingHealthInputs {
  readonly tail: TailHealth;
  readonly clock: () => number;
  readonly pauses: Pick<PauseBoard, 'list'>;
  readonly config: {
    readonly self_monitoring: SelfMonitoringConfig;
    readonly notifiers: Readonly<Record<string, unknown>>;
  };
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
