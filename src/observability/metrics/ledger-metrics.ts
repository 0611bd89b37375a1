// The metrics of requests to the query and verification services.
import { Counter, Histogram, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** Requests to the query and verification services and what their answers held. */
export function ledgerMetrics(r: Registry[]) {
  return {
    requests: new Counter({
      name: `${P}ledger_requests_total`,
      help: 'Requests to the query and verification services by endpoint and HTTP status (status "error" for network failures).',
      labelNames: ['endpoint', 'status'],
      registers: r,
    }),
    requestDuration: new Histogram({
      name: `${P}ledger_request_duration_seconds`,
      help: 'Duration of one HTTP request to the query or verification service.',
      labelNames: ['endpoint'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: r,
    }),
    retries: new Counter({
      name: `${P}ledger_retries_total`,
      help: 'Requests retried after a 429, 5xx, reset or timeout.',
      labelNames: ['endpoint', 'reason'],
      registers: r,
    }),
    budgetWait: new Histogram({
      name: `${P}request_budget_wait_seconds`,
      help: 'Time a request waited for the shared request budget.',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: r,
    }),
    pages: new Counter({
      name: `${P}pages_total`,
      help: 'Result pages read, by endpoint.',
      labelNames: ['endpoint'],
      registers: r,
    }),
    invalidRecords: new Counter({
      name: `${P}invalid_records_total`,
      help: 'Reads of records that failed validation (each re-read counts; the tailers keep each such record once in quarantine).',
      labelNames: ['endpoint'],
      registers: r,
    }),
    requestErrors: new Counter({
      name: `${P}ledger_request_errors_total`,
      help: 'Query-service attempts that got no HTTP answer, by endpoint and reason (timeout: a connect, headers or body-pause timeout; deadline: the attempt outlived ledger.timeouts.total, e.g. a trickled body; reset; aborted; other).',
      labelNames: ['endpoint', 'reason'],
      registers: r,
    }),
    degradedFields: new Counter({
      name: `${P}record_fields_degraded_total`,
      help: 'Fields the daemon does not rely on that had an unexpected shape and were read as unknown (the record was kept), by field.',
      labelNames: ['field'],
      registers: r,
    }),
  };
}
