// Bench 2, request efficiency: requests per minute for 10, 1,000 and 10,000 watched accounts at 200 TPS, per
// strategy, against the minimum pages the new records require. The measuring is the tail engineer's
// bench/tail.bench.ts (simulated time, the living ledger, the real tailer); it exports no functions, so it runs
// here as a child process and its table is read back. Targets (bench/targets.ts): global settled ≤ 1.2 × minimum,
// immediate ≤ 1.5 × (missed today: docs/tailing.md, "The request floor"); 10,000 accounts within 50 requests/s
// (the strategy auto picks).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { figure, type Figure } from './figures.js';
import { TARGETS, checkedTarget } from '../targets.js';
import { isMain, runStandalone, type BenchOptions } from './options.js';

const SUITE = '2 requests';
const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface TailRow {
  readonly accounts: number;
  readonly strategy: string;
  readonly requestsPerMinute: number;
  readonly requestsPerSecond: number;
  readonly minPagesPerMinute: number;
  readonly p99StalenessSeconds: number;
}

function cells(line: string): string[] {
  return line
    .split('│')
    .slice(1, -1)
    .map((c) => c.trim().replace(/^'|'$/g, ''));
}

/** The rows of console.table output, by column name (`accounts`, `strategy`, `req/min`, …), so added columns are fine. */
export function parseTailTable(text: string): TailRow[] {
  const lines = text.split('\n');
  const header = lines.find((l) => l.includes('│') && l.includes('req/min'));
  if (!header) return [];
  const names = cells(header);
  return lines
    .filter((line) => /^│\s*\d+\s*│/.test(line))
    .map((line) => {
      const row = new Map(cells(line).map((c, i) => [names[i] ?? '', c]));
      const num = (name: string) => Number(row.get(name) ?? NaN);
      return {
        accounts: num('accounts'),
        strategy: row.get('strategy') ?? '',
        requestsPerMinute: num('req/min'),
        requestsPerSecond: num('req/s'),
        minPagesPerMinute: num('min pages/min'),
        p99StalenessSeconds: num('p99 staleness s'),
      };
    });
}

export async function requestsBench(options: BenchOptions): Promise<Figure[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'bench/tail.bench.ts'],
    {
      cwd: REPO,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const rows = parseTailTable(stdout);
  if (rows.length === 0) throw new Error(`bench/tail.bench.ts printed no table:\n${stdout}`);
  options.log(stdout.split('\n')[0] ?? '');
  const figures: Figure[] = [];
  for (const r of rows) {
    const name = `${r.accounts.toLocaleString('en')} accounts, ${r.strategy}`;
    const ratio =
      r.minPagesPerMinute > 0 ? Math.round((r.requestsPerMinute / r.minPagesPerMinute) * 10) / 10 : NaN;
    figures.push(
      figure(SUITE, `${name}: requests/min`, r.requestsPerMinute, {
        unit: 'req/min',
        note: `${r.requestsPerSecond} req/s, min pages ${r.minPagesPerMinute}/min, p99 staleness ${r.p99StalenessSeconds} s`,
      }),
    );
    // Each mode is checked against its goal (bench/targets.ts): the default `immediate` mode against issue
    // #20's ≤ 1.5 ×, which it misses today (docs/tailing.md, "The request floor") — a goal is not relaxed to pass.
    if (r.strategy.startsWith('global'))
      figures.push(
        checkedTarget(
          SUITE,
          `${name}: ÷ min pages`,
          ratio,
          r.strategy.includes('settled') ? TARGETS.globalSettledPages : TARGETS.globalImmediatePages,
          { unit: '×' },
        ),
      );
    else figures.push(figure(SUITE, `${name}: ÷ min pages`, ratio, { unit: '×' }));
  }
  const picked =
    rows.find((r) => r.accounts === 10_000 && r.strategy.startsWith('auto')) ??
    rows.find((r) => r.accounts === 10_000 && r.strategy.startsWith('global'));
  if (picked)
    figures.push(
      checkedTarget(
        SUITE,
        `10,000 accounts, ${picked.strategy}: requests/s`,
        picked.requestsPerSecond,
        TARGETS.requestsPerSecond10k,
        {
          unit: 'req/s',
        },
      ),
    );
  return figures;
}

if (isMain(import.meta.url)) await runStandalone(requestsBench);
