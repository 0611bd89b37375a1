// The query-service and verification clients as the config describes them, sharing the metrics.
import type { Logger } from 'pino';
import type { Config } from '../config-file/schema.js';
import { createLedgerClient, type LedgerClient } from '../ledger/client.js';
import { createRequestBudget } from '../ledger/request-budget.js';
import { createVerifyClient, type VerifyClient } from '../ledger/verify-client.js';
import type { Metrics } from '../observability/metrics.js';

export function ledgerClientFor(config: Config, logger: Logger, metrics?: Metrics): LedgerClient {
  const { ledger } = config;
  return createLedgerClient({
    baseUrl: ledger.base_url,
    budget: createRequestBudget({ requestsPerSecond: ledger.requests_per_second }),
    timeouts: {
      connectMs: ledger.timeouts.connect,
      headersMs: ledger.timeouts.headers,
      bodyMs: ledger.timeouts.body,
      totalMs: ledger.timeouts.total,
    },
    maxResponseBytes: ledger.max_response_bytes,
    retry: {
      maxAttempts: ledger.retry.max_attempts,
      baseDelayMs: ledger.retry.base_delay,
      maxDelayMs: ledger.retry.max_delay,
    },
    logger,
    ...(metrics ? { metrics } : {}),
  });
}

/** undefined when no `verification:` section is configured. */
export function verifyClientFor(config: Config, logger: Logger, metrics?: Metrics): VerifyClient | undefined {
  if (!config.verification) return undefined;
  return createVerifyClient({
    baseUrl: config.verification.base_url,
    logger,
    ...(metrics ? { metrics } : {}),
  });
}
