// What a page says about the records it could not read: counted on every read, logged once per record and
// process (overlap re-scans read the same record again and again).
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { LedgerMetrics } from './ledger-request.js';
import { once } from './once.js';
import type { Endpoint, Page } from './page.js';

export function createPageReporter(
  metrics: LedgerMetrics | undefined,
  log: Logger | undefined,
): (endpoint: Endpoint, page: Page<unknown>) => void {
  const firstTime = once();
  return function reportPage(endpoint: Endpoint, page: Page<unknown>): void {
    if (page.invalid.length > 0) metrics?.invalidRecords.inc({ endpoint }, page.invalid.length);
    for (const bad of page.invalid) {
      // Not the path: it holds the record's index, which differs between the listings that read it.
      const id = bad.timestamp ?? createHash('sha256').update(bad.raw).digest('hex');
      if (!firstTime(`${endpoint}|${id}|${bad.field}`)) continue;
      const { path, timestamp, transactionId, message: reason } = bad;
      log?.warn({ endpoint, path, timestamp, transactionId, reason }, 'ledger record cannot be read');
    }
    for (const d of page.degraded) {
      metrics?.degradedFields.inc({ field: d.field });
      if (!firstTime(`${endpoint}|${d.timestamp ?? ''}|${d.field}|degraded`)) continue;
      log?.warn(
        { endpoint, field: d.field, timestamp: d.timestamp },
        'ledger record field unreadable; kept as unknown',
      );
    }
  };
}
