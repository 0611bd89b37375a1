// Choosing between per-account polling and the global tail by what each costs in requests per interval.
// Pure: the tailer feeds it counts and the observed rate, and re-evaluates every few rounds.

export type Strategy = 'per-account' | 'global';

export interface CostInputs {
  /** Per-account streams the global tail could cover (transactions and rewards by id). */
  readonly coveredStreams: number;
  /** Ledger-wide transactions per second (consensus time); undefined = not measured yet. */
  readonly tps: number | undefined;
  readonly pollIntervalMs: number;
  readonly overlapMs: number;
  readonly pageLimit: number;
}

export interface Costs {
  readonly perAccount: number;
  readonly global: number;
}

/**
 * Requests per poll interval. Per-account: one request per stream (quiet accounts fit one page) plus the
 * head probe. Global: every row of (interval + overlap) — each poll re-reads the overlap window — in pages,
 * plus the final page of the chain. Streams outside the global tail cost the same either way: left out.
 */
export function estimateCosts(input: CostInputs): Costs {
  const perAccount = input.coveredStreams + 1;
  const tps = input.tps ?? 0;
  const rows = (tps * (input.pollIntervalMs + input.overlapMs)) / 1000;
  const global = Math.ceil(rows / input.pageLimit) + 1;
  return { perAccount, global };
}

/** Switch only when the other strategy is clearly cheaper (25%), so noise in the rate does not flap. */
export function chooseStrategy(current: Strategy | undefined, costs: Costs): Strategy {
  const cheaper: Strategy = costs.global < costs.perAccount ? 'global' : 'per-account';
  if (current === undefined || current === cheaper) return cheaper;
  const [now, other] =
    current === 'global' ? [costs.global, costs.perAccount] : [costs.perAccount, costs.global];
  return other < now * 0.75 ? cheaper : current;
}
