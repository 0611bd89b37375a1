// The newest consensus timestamp the query service has shown us, and the ledger's rate of transactions.
// The head comes from the service, not the wall clock: "every row at or below head − overlap is visible"
// then holds however far the service lags behind consensus (docs/ledger-api.md §16).
//
// A timestamp beyond `limit()` (now on this host's clock) is ignored, not clamped: clamping would still carry
// every account's `safe` cursor up to the limit, past rows not yet written (docs/tailing.md). A row dated ahead
// of the clock becomes the head once the clock has passed it and a later probe or read sees it again.
import type { Timestamp } from '@ledger-sentinel/ledger-model/timestamp';

export class HeadTracker {
  /** Without a limit (tests of the tracker alone), every timestamp counts. */
  constructor(
    private readonly limit: () => Timestamp = () => 2n ** 63n,
    /** Told of every timestamp the head did not take because it is beyond the limit. */
    private readonly onAhead: (ts: Timestamp) => void = () => undefined,
  ) {}

  private newest: Timestamp | undefined;
  private tpsEstimate: number | undefined;
  /** The head probe has walked back past the last day once (poll/probe-head.ts); not repeated every round. */
  searchedDeep = false;

  get head(): Timestamp | undefined {
    return this.newest;
  }

  /** Transactions per second of consensus time, from the last sample; undefined until one was taken. */
  get tps(): number | undefined {
    return this.tpsEstimate;
  }

  /** Takes `ts` as the head when it is newer and not beyond the limit; true when it was within the limit. */
  observe(ts: Timestamp): boolean {
    if (ts > this.limit()) {
      this.onAhead(ts);
      return false;
    }
    if (this.newest === undefined || ts > this.newest) this.newest = ts;
    return true;
  }

  /** `count` transactions (all of them, no filter) spanning [first, last] of consensus time. */
  sampleRate(count: number, first: Timestamp, last: Timestamp): void {
    if (last > this.limit()) return;
    const spanNs = last > first ? Number(last - first) : 0;
    if (count < 2 || spanNs <= 0) return;
    const tps = ((count - 1) * 1e9) / spanNs;
    // Smooth: one quiet or busy second should not flip the strategy.
    this.tpsEstimate = this.tpsEstimate === undefined ? tps : this.tpsEstimate * 0.7 + tps * 0.3;
  }
}
