// The metrics the tail writes: a narrow view of the daemon's registry, so every sub-room of the tail (and its
// tests) names exactly what it may touch.
import type { Metrics } from '../observability/metrics.js';

export type TailMetrics = Pick<
  Metrics,
  | 'records'
  | 'dedupDrops'
  | 'recordsUnattributed'
  | 'staleness'
  | 'lag'
  | 'tailStrategy'
  | 'stalenessP99'
  | 'stalenessMax'
  | 'pollFailures'
  | 'pollTruncated'
  | 'quarantined'
  | 'futureRecords'
  | 'headAhead'
  | 'globalPages'
  | 'sweepLateRecords'
  | 'ledgerTps'
  | 'tailDemand'
  | 'tailBudget'
  | 'tailCapacityRatio'
  | 'consensusToEvaluated'
>;
