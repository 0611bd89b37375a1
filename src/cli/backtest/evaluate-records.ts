// One moment of a replay: the tail records of one ledger record, each enriched as the daemon's pipeline does (call
// traces only for records a rule needs them for, then contract verification) and evaluated. The backtest and
// `ledger-sentinel test` both go through here, so a rule behaves in a rule test as it does in a backtest.
import type { CallTraces } from '../../enrich/call-trace.js';
import type { ContractVerification } from '../../enrich/verification.js';
import type { Alert } from '../../rules/alert.js';
import type { Engine } from '../../rules/engine.js';
import type { TailRecord } from '../../tail/streams/record-handler.js';
import { enrichEvent } from '../../pipeline/pipeline.js';

export interface EnrichSources {
  readonly traces: CallTraces;
  readonly verification: ContractVerification;
}

export async function evaluateRecords(
  engine: Engine,
  items: readonly TailRecord[],
  sources: EnrichSources,
): Promise<Alert[]> {
  const alerts: Alert[] = [];
  for (const item of items) {
    const event = await enrichEvent(engine, item, sources);
    alerts.push(...engine.evaluate(event).alerts);
  }
  return alerts;
}
