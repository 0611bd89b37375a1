// Bench 1, memo regexes: the same rule regexes on the same memos through V8's RegExp (backtracking), re2 (the
// native binding rule regexes run on, src/rules/conditions/shared/compile-regex.ts) and re2-wasm (the portable alternative), side by
// side. Realistic memos first, then the memo that froze the daemon: `^(\w+\s?)*$` on 49 × "a" and "!". RegExp
// never runs that one: it is timed on shorter runs of "a" until one test takes CAP_MS, and the growth per
// character is extrapolated to 49 (running it would stop the bench for days).
import RE2 from 're2';
import { RE2 as WasmRE2 } from 're2-wasm';
import { figure, round, type Figure } from './lib/figures.js';
import { TARGETS, checkedTarget } from './targets.js';
import type { BenchOptions } from './lib/options.js';

const SUITE = '1 pipeline';
const REDOS = '^(\\w+\\s?)*$';
const REDOS_LENGTH = 49;
const CAP_MS = 50;

const PATTERNS: readonly (readonly [string, string])[] = [
  ['^(refund|payout)-\\d+$', ''],
  ['invoice\\s+#?\\d{3,8}', 'i'],
  ['^[A-Z]{3}-\\d{4}-[a-f0-9]{8}$', ''],
  ['(swap|bridge|airdrop)', 'i'],
];

type Test = (text: string) => boolean;

function realisticMemos(): string[] {
  const memos: string[] = [];
  for (let i = 0; i < 200; i++) {
    const kind = i % 5;
    if (kind === 0) memos.push(`refund-${i * 7919}`);
    else if (kind === 1) memos.push(`Invoice #${String(i).padStart(6, '0')} for services, March`);
    else if (kind === 2)
      memos.push(`ABC-${1000 + i}-${(i * 2654435761).toString(16).slice(0, 8).padEnd(8, '0')}`);
    else if (kind === 3) memos.push(`payment ${i} `.repeat(8));
    else memos.push(`bridge transfer ${i} ${'x'.repeat(i % 100)}`);
  }
  memos.push('a '.repeat(512)); // a memo at the 1,024-character evaluation bound
  return memos;
}

/** Best of `rounds` per engine, in nanoseconds per test; engines alternate within each round (shared cores). */
function nsPerTest(engines: readonly Test[][], memos: readonly string[], rounds: number): number[] {
  const best = engines.map(() => Infinity);
  for (let r = 0; r <= rounds; r++)
    engines.forEach((tests, e) => {
      let hits = 0;
      const start = process.hrtime.bigint();
      for (const test of tests) for (const memo of memos) if (test(memo)) hits++;
      const ns = Number(process.hrtime.bigint() - start) / (tests.length * memos.length);
      if (r > 0 && hits >= 0) best[e] = Math.min(best[e] ?? Infinity, ns);
    });
  return best;
}

function engines(source: string, flags: string): Test[] {
  const native = new RE2(source, `${flags}u`);
  const wasm = new WasmRE2(source, `${flags}u`);
  const plain = new RegExp(source, `${flags}u`);
  return [(t) => plain.test(t), (t) => native.test(t), (t) => wasm.test(t)];
}

function msOf(test: Test, text: string): number {
  const start = process.hrtime.bigint();
  test(text);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** RegExp on `a`×n + `!`, n growing until CAP_MS: [largest n run, its ms, growth factor per character]. */
function backtrackingGrowth(): [number, number, number] {
  const re = new RegExp(REDOS, 'u');
  const times: number[] = [];
  let n = 12;
  for (; n < REDOS_LENGTH; n++) {
    times[n] = msOf((t) => re.test(t), `${'a'.repeat(n)}!`);
    if ((times[n] ?? 0) > CAP_MS) break;
  }
  const last = Math.min(n, REDOS_LENGTH - 1);
  const factor = ((times[last] ?? 1) / (times[last - 4] ?? 1)) ** (1 / 4);
  return [last, times[last] ?? 0, factor];
}

export async function regexEnginesBench(options: BenchOptions): Promise<Figure[]> {
  const memos = realisticMemos();
  const tests = PATTERNS.map(([source, flags]) => engines(source, flags));
  const byEngine = [0, 1, 2].map((e) => tests.map((t) => t[e] as Test));
  const [plain = 0, native = 0, wasm = 0] = nsPerTest(byEngine, memos, options.quick ? 3 : 7);
  const hostile = `${'a'.repeat(REDOS_LENGTH)}!`;
  const [, redosNative, redosWasm] = engines(REDOS, '').map((test) => test as Test);
  const nativeMs = Math.min(...[0, 1, 2, 3].map(() => msOf(redosNative as Test, hostile)));
  const wasmMs = Math.min(...[0, 1, 2, 3].map(() => msOf(redosWasm as Test, hostile)));
  const [n, lastMs, factor] = backtrackingGrowth();
  const extrapolatedS = (lastMs * factor ** (REDOS_LENGTH - n)) / 1000;
  options.log(
    `${SUITE}: memo regexes, ${PATTERNS.length} patterns × ${memos.length} memos; RegExp on the ReDoS memo stopped at n=${n} (${round(lastMs)} ms, ×${round(factor)} per character)`,
  );
  return [
    figure(SUITE, 'memo regex, RegExp (backtracking)', round(plain, 0), { unit: 'ns/test' }),
    figure(SUITE, 'memo regex, re2 (native)', round(native, 0), {
      unit: 'ns/test',
      note: `${round(native / plain)}× RegExp`,
    }),
    figure(SUITE, 'memo regex, re2-wasm', round(wasm, 0), {
      unit: 'ns/test',
      note: `${round(wasm / plain)}× RegExp, ${round(wasm / native)}× re2 native`,
    }),
    checkedTarget(SUITE, 'ReDoS memo, re2 (native)', round(nativeMs * 1000, 1), TARGETS.redosNative, {
      unit: 'µs',
    }),
    figure(SUITE, 'ReDoS memo, re2-wasm', round(wasmMs * 1000, 1), { unit: 'µs' }),
    figure(SUITE, 'ReDoS memo, RegExp (extrapolated)', Number(extrapolatedS.toPrecision(2)), {
      unit: 's',
      note: `measured up to ${n} × "a" (${round(lastMs)} ms), ×${round(factor)} per character`,
    }),
  ];
}
