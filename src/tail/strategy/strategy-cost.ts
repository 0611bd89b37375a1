// Choosing between per-account polling and the global tail by what each costs in requests per interval.
// Pure: the tailer feeds it counts and the observed rate, and re-evaluates every few rounds.

import type { TailConfig } from '../tail-config.js';

export type Strategy = 'per-account' | 'global';

export interface CostInputs {
  /** Per-account streams the global tail could cover (transactions and rewards by id). */
  readonly coveredStreams: number;
  /** Ledger-wide transactions per second (consensus time); undefined = not measured yet. */
  readonly tps: number | undefined;
  readonly pollIntervalMs: number;
  /** tail.global_mode. */
  readonly globalMode: 'immediate' | 'settled';
  /** tail.sweep_interval (immediate mode). */
  readonly sweepIntervalMs: number;
  readonly pageLimit: number;
}

export interface Costs {
  readonly perAccount: number;
  readonly global: number;
}

/**
 * Requests per poll interval. Per-account: one request per stream (quiet accounts fit one page) plus the
 * head probe. Global, in pages of the interval's rows (`rows`): immediate reads each row twice — the head read
 * every poll (its rows plus its final page) and the sweep once per sweep interval (the same rows, plus its
 * final page, shared by the polls of that interval); settled reads each row once, plus its final page and the
 * head probe. Streams outside the global tail cost the same either way: left out.
 */
export function estimateCosts(input: CostInputs): Costs {
  const perAccount = input.coveredStreams + 1;
  const rows = ((input.tps ?? 0) * input.pollIntervalMs) / 1000;
  const pages = rows / input.pageLimit;
  const global =
    input.globalMode === 'settled'
      ? Math.floor(pages) + 2
      : Math.ceil(2 * pages + 1 + input.pollIntervalMs / input.sweepIntervalMs);
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

/** The cost model's inputs from the tail config, the covered stream count and the observed rate. */
export function costInputsFor(
  config: Pick<TailConfig, 'poll_interval' | 'global_mode' | 'sweep_interval'>,
  coveredStreams: number,
  tps: number | undefined,
  pageLimit: number,
): CostInputs {
  return {
    coveredStreams,
    tps,
    pollIntervalMs: config.poll_interval,
    globalMode: config.global_mode,
    sweepIntervalMs: config.sweep_interval,
    pageLimit,
  };
}
