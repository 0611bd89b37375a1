// /readyz with ha: a standby is ready (it serves /metrics, the status page and the read API) without polling or
// delivering, so only config and state are checked, plus the role line naming the leader; the leader is checked
// like a single replica, plus its role line.
import type { ReadinessCheck } from '../observability/http-server.js';
import type { Leadership } from './leadership.js';

export function standbyReadiness(
  checks: Record<string, ReadinessCheck>,
  leadership: Leadership | undefined,
): Record<string, ReadinessCheck> {
  if (!leadership) return checks;
  const role = leadership.readiness();
  if (leadership.leading()) return { ...checks, role };
  const { config, state } = checks;
  return { ...(config ? { config } : {}), ...(state ? { state } : {}), role };
}
