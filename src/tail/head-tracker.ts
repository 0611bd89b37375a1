// The newest consensus timestamp the query service has shown us, and the ledger's rate of transactions.
// The head comes from the service, not the wall clock: "every row at or below head − overlap is visible"
// then holds however far the service lags behind consensus (docs/ledger-api.md §16).
import type { Timestamp } from '../ledger/timestamp.js';

export class HeadTracker {
  private newest: Timestamp | undefined;
  private tpsEstimate: number | undefined;
  /** The head probe has walked back past the last day once (probe-head.ts); not repeated every round. */
  searchedDeep = false;

  get head(): Timestamp | undefined {
    return this.newest;
  }

  /** Transactions per second of consensus time, from the last sample; undefined until one was taken. */
  get tps(): number | undefined {
    return this.tpsEstimate;
  }

  observe(ts: Timestamp): void {
    if (this.newest === undefined || ts > this.newest) this.newest = ts;
  }

  /** `count` transactions (all of them, no filter) spanning [first, last] of consensus time. */
  sampleRate(count: number, first: Timestamp, last: Timestamp): void {
    const spanNs = last > first ? Number(last - first) : 0;
    if (count < 2 || spanNs <= 0) return;
    const tps = ((count - 1) * 1e9) / spanNs;
    // Smooth: one quiet or busy second should not flip the strategy.
    this.tpsEstimate = this.tpsEstimate === undefined ? tps : this.tpsEstimate * 0.7 + tps * 0.3;
  }
}
