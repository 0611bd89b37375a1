// The invariants a fault run must hold, checked on what the run observed. Each returns the violations in words,
// so a failing property names what broke.
import { alertTally } from './alert-tally.js';
import type { LivenessReport } from './liveness-probe.js';

/**
 * /healthz must answer within 1 s. Normally it answers in well under 20 ms, so 1 s is a 50× margin: this is a
 * liveness bound (the event loop is not frozen by a hostile page, a trickled body or a regex), not a latency
 * figure, and that margin is what makes it acceptable as an assertion on a loaded test machine.
 */
export const HEALTHZ_BOUND_MS = 1_000;
/**
 * A marker on a clean stream must reach the clean channel within 20 s of being written while other streams and
 * the other channels are faulted: 40 poll intervals of 500 ms, so only a stream (or channel) waiting on another
 * one exceeds it, never ordinary scheduling.
 */
export const CLEAN_STREAM_BOUND_MS = 20_000;
/** Memory stays bounded: far above the daemon's usual ~150 MiB, far below what an unbounded buffer reaches. */
export const RSS_BOUND_MIB = 768;
export const HEAP_BOUND_MIB = 384;

export interface ChannelDeliveries {
  readonly name: string;
  /** Bodies of the messages the channel accepted. */
  readonly bodies: readonly string[];
}

export interface FaultObservations {
  readonly expected: ReadonlySet<string>;
  readonly channels: readonly ChannelDeliveries[];
  /** Clean-stream marker → ms from its injection to its first delivery on the clean channel (undefined: never). */
  readonly cleanLatencyMs: ReadonlyMap<string, number | undefined>;
  readonly liveness: LivenessReport;
}

export function deliveryViolations(expected: ReadonlySet<string>, channel: ChannelDeliveries): string[] {
  const t = alertTally(expected, channel.bodies);
  const out: string[] = [];
  if (t.lost.length) out.push(`${channel.name}: ${t.lost.length} lost (${t.lost.slice(0, 5).join(' ')})`);
  if (t.duplicates.length)
    out.push(`${channel.name}: alerts delivered twice or more: ${t.duplicates.slice(0, 5).join(' ')}`);
  if (t.unexpected.length) out.push(`${channel.name}: unexpected alerts ${t.unexpected.join(' ')}`);
  if (t.stray) out.push(`${channel.name}: ${t.stray} messages that are no marker's alert`);
  return out;
}

export function faultViolations(o: FaultObservations): string[] {
  const out = o.channels.flatMap((c) => deliveryViolations(o.expected, c));
  const late = [...o.cleanLatencyMs].filter(([, ms]) => ms === undefined || ms > CLEAN_STREAM_BOUND_MS);
  if (late.length)
    out.push(
      `clean streams waited: ${late.map(([m, ms]) => `${m} ${ms === undefined ? 'never' : `${Math.round(ms)} ms`}`).join(', ')} (bound ${CLEAN_STREAM_BOUND_MS} ms)`,
    );
  const l = o.liveness;
  if (l.maxHealthzMs > HEALTHZ_BOUND_MS || l.failures > 0)
    out.push(`/healthz: slowest ${Math.round(l.maxHealthzMs)} ms, ${l.failures}/${l.probes} failed`);
  if (l.probes === 0) out.push('/healthz: never probed');
  if (l.maxRssMiB > RSS_BOUND_MIB) out.push(`RSS ${Math.round(l.maxRssMiB)} MiB > ${RSS_BOUND_MIB}`);
  if (l.maxHeapMiB > HEAP_BOUND_MIB) out.push(`heap ${Math.round(l.maxHeapMiB)} MiB > ${HEAP_BOUND_MIB}`);
  return out;
}
