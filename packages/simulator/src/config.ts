// Simulator settings: the REST configuration keys of the service that the routes read.
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import type { ServiceVersion } from './service-version.js';

export interface SimulatorConfig {
  /** response.limit.max: larger `limit` values are capped silently (docs/ledger-api.md §4). */
  maxLimit: number;
  /** The default limit, read once at start-up upstream (25). */
  defaultLimit: number;
  /** query.maxRepeatedQueryParameters (100). */
  maxRepeatedQueryParameters: number;
  /** query.bindTimestampRange: the 60-day binding of /transactions (docs/ledger-api.md §11.5). */
  bindTimestampRange: boolean;
  /** query.maxTransactionsTimestampRange in ns (60 days). */
  maxTimestampRangeNs: bigint;
  /** "now" in ns since the epoch; the binding's default upper bound. */
  now(): bigint;
  /** The response shapes of which service era (service-version.ts); default '0.129'. */
  serviceVersion: ServiceVersion;
  /** response.limit.tokenBalance: token balances per account in /balances (50) and /accounts/{id} (1,000). */
  tokenBalanceLimit: { readonly multipleAccounts: number; readonly singleAccount: number };
}

export const SIXTY_DAYS_NS = 5_184_000_000_000_000n;

/** Upstream defaults; binding on, as on the Hedera-operated mainnet the living ledger imitates. */
export function defaultSimulatorConfig(overrides: Partial<SimulatorConfig> = {}): SimulatorConfig {
  return {
    maxLimit: 100,
    defaultLimit: 25,
    maxRepeatedQueryParameters: 100,
    bindTimestampRange: true,
    maxTimestampRangeNs: SIXTY_DAYS_NS,
    now: () => timestampFromMillis(Date.now()),
    serviceVersion: '0.129',
    tokenBalanceLimit: { multipleAccounts: 50, singleAccount: 1000 },
    ...overrides,
  };
}
