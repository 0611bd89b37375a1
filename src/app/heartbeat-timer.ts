// The heartbeat (self-monitor/heartbeat.ts) of a runtime: it runs where the runtime runs — the leader in HA,
// so one replica pings — and measures health with the readiness checks (/readyz) that concern alerting
// (self-monitor/alerting-health.ts).
import { alertingHealth } from '../self-monitor/alerting-health.js';
import { createHeartbeat } from '../self-monitor/heartbeat.js';
import type { HeartbeatTimer, RuntimeParts, Shared } from './runtime-parts.js';

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
