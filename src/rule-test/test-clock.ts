// The clock of one test: where it starts ("+<span>" counts from there) and how far each step goes. The runner
// ticks the engine at every step, so absence windows fire and count/sum windows drain as they do in the daemon.
import type { TestCase, TestFile } from './schema.js';
import { resolveTime } from './test-time.js';

/** Where a test starts when neither it, its file, nor its first input says: 2026-01-01T00:00:00Z. */
export const DEFAULT_START = 1_767_225_600_000_000_000n;
export const DEFAULT_EVAL_INTERVAL = 60_000_000_000n;
/** Steps one test may take: the runner ticks at each, so this bounds its time whatever the file says. */
export const MAX_STEPS = 1_000_000n;

export interface TestClock {
  readonly start: bigint;
  readonly interval: bigint;
  /** Input times, in input order, resolved. */
  readonly inputs: readonly bigint[];
  /** Where the clock stops: eval_until, else the latest input. */
  readonly end: bigint;
}

export function clockOf(test: TestCase, file: Pick<TestFile, 'start' | 'eval_interval'>): TestClock {
  const first = test.input[0]?.at;
  const start =
    (test.start ?? file.start)?.ns ?? (first?.kind === 'at' ? first.ns : undefined) ?? DEFAULT_START;
  const inputs = test.input.map((i) => resolveTime(i.at, start));
  const until = test.eval_until && resolveTime(test.eval_until, start);
  const end = [start, ...inputs, ...(until === undefined ? [] : [until])].reduce((a, b) => (b > a ? b : a));
  return { start, interval: test.eval_interval ?? file.eval_interval ?? DEFAULT_EVAL_INTERVAL, inputs, end };
}
