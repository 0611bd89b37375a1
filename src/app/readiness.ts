// /readyz: ready to alert means the config is loaded, the state store is open, the first poll has read a page,
// and the query service answered within the staleness bound (self_monitoring.query_service_down_after).
import type { ReadinessCheck } from '../observability/http-server.js';
import type { TailHealth } from './tail-loop.js';

export interface ReadinessInputs {
  readonly configLoaded: () => boolean;
  readonly stateOpen: () => boolean;
  /** Why the open state is no longer the one at state.dir (deleted, replaced, read-only), or undefined. */
  readonly stateProblem?: () => string | undefined;
  readonly health: () => TailHealth;
  readonly boundMs: () => number;
  readonly clock: () => number;
}

export function readinessChecks(inputs: ReadinessInputs): Record<string, ReadinessCheck> {
  const health = inputs.health();
  const last = health.lastReachableAt;
  const age = last === undefined ? undefined : inputs.clock() - last;
  return {
    config: inputs.configLoaded()
      ? { ok: true, message: 'loaded' }
      : { ok: false, message: 'the configuration is not loaded' },
    state: stateCheck(inputs),
    poll:
      health.firstPollAt !== undefined
        ? { ok: true, message: 'first poll done' }
        : { ok: false, message: 'no poll has completed yet' },
    query_service:
      age !== undefined && age <= inputs.boundMs()
        ? { ok: true, message: `answered ${Math.round(age / 1000)} s ago` }
        : {
            ok: false,
            message: age === undefined ? 'not reached yet' : `no answer for ${Math.round(age / 1000)} s`,
          },
  };
}

function stateCheck(inputs: ReadinessInputs): ReadinessCheck {
  if (!inputs.stateOpen()) return { ok: false, message: 'the state store is closed' };
  const problem = inputs.stateProblem?.();
  return problem === undefined ? { ok: true, message: 'open' } : { ok: false, message: problem };
}
