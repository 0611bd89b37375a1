// What one poll of one stream reports, whatever its kind (per-account listing, global head read or sweep).
import type { TruncateReason } from './walk-bound.js';

export interface PollResult {
  readonly pages: number;
  readonly delivered: number;
  readonly dropped: number;
  /** Set when the poll stopped at its bound (walk-bound.ts) before the end of the listing. */
  readonly truncated?: TruncateReason;
}
