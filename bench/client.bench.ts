// Parse + validate throughput of the ledger client on 100-record transaction pages, against plain JSON.parse
// of the same bytes, in one run. Target: ratio ≥ 0.6. `npm run bench:client`
// Rounds alternate between the contenders and the median per-round ratio is reported, so load from other
// processes on a shared machine hits both sides alike.
import { parseJson } from '../src/ledger/json.js';
import { parsePageText } from '../src/ledger/page.js';
import { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { transactionsPage } from './client-page.js';

const ROUNDS = 9;
const ITERATIONS = 100;

function perPage(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) fn();
  return Number(process.hrtime.bigint() - start) / ITERATIONS / 1000; // µs per page
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function zodOnly(text: string): unknown {
  return (parseJson(text) as { transactions: unknown[] }).transactions.map((t) => Transaction.parse(t));
}

function measure(label: string, text: string, target: string): void {
  const page = parsePageText('transactions', '/bench', text);
  if (page.records.length !== 100 || page.invalid.length !== 0)
    throw new Error('bench page did not validate');
  const contenders = {
    plain: () => JSON.parse(text),
    client: () => parsePageText('transactions', '/bench', text),
    zod: () => zodOnly(text),
  };
  for (const fn of Object.values(contenders)) perPage(fn); // warm-up
  const times = { plain: [] as number[], client: [] as number[], zod: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(contenders)) times[name as keyof typeof times].push(perPage(fn));
  }
  const ratio = (name: 'client' | 'zod') => median(times.plain.map((p, i) => p / (times[name][i] as number)));
  console.log(`${label} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, 100 records)`);
  console.log(`  JSON.parse                 ${median(times.plain).toFixed(0).padStart(6)} µs/page`);
  console.log(
    `  client parse + validate    ${median(times.client).toFixed(0).padStart(6)} µs/page   ratio ${ratio('client').toFixed(2)}${target}`,
  );
  console.log(
    `  zod-only parse + validate  ${median(times.zod).toFixed(0).padStart(6)} µs/page   ratio ${ratio('zod').toFixed(2)}`,
  );
}

measure('ordinary page', transactionsPage(false), ' (target ≥ 0.60)');
measure('page with amounts > 2^53 (quoted re-parse)', transactionsPage(true), '');
