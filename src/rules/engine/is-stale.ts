// When a group's state can be forgotten (on-tick.ts drops it).
import type { CompiledRule } from '../load/rule-set.js';
import type { GroupState } from '../alert-state/group-state.js';
import { throttlePassed } from './throttle.js';

/**
 * A group that no longer affects any decision: a quiet stateless key past its throttle, an empty window, the
 * absence state of an account that is no longer watched.
 */
export function isStale(
  rule: CompiledRule,
  s: GroupState,
  nowNs: bigint,
  watched: ReadonlySet<string> | undefined,
): boolean {
  if (rule.window?.kind === 'absent') return !watched?.has(s.group.account ?? '');
  if (rule.window) return !s.firing && s.times.length === 0;
  return throttlePassed(s.lastSentNs, nowNs, rule.throttleNs);
}
