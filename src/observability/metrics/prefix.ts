// The prefix of every metric name of ledger-sentinel.
export const PREFIX = 'ledger_sentinel_';
