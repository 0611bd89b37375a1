// Backtest over accounts configured by EVM address or alias: the replay matches records by `0.0.N`, so those
// are resolved first (through the query service, as the daemon does); one the service does not know is named
// on stderr and left out, instead of silently matching nothing.
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createMetrics } from '../../observability/metrics.js';
import { createAccountResolution } from '../../app/account-resolution.js';
import type { Loaded } from '../../app/load-all.js';

export async function resolveForReplay(loaded: Loaded, log: Logger, stderr: Writable): Promise<Loaded> {
  const resolution = createAccountResolution({ log, metrics: createMetrics(), clock: Date.now });
  try {
    const applied = await resolution.apply(loaded, true);
    for (const { entry, account } of applied.unresolved ?? [])
      stderr.write(
        `ledger-sentinel backtest: ${entry} ${String(account.lookup)}: not resolved to an account id by the query service; not replayed\n`,
      );
    return applied;
  } finally {
    resolution.close();
  }
}
