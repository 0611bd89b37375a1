// Bench 1's ratio on a loaded machine: the same pages, the same pipeline (parse → validate → match → 50 rules →
// takeChanges) against JSON.parse, but timed in CPU time per chunk of 10 pages, keeping each chunk's minimum over
// many alternating rounds and summing those. With 7 other sessions on 2 cores, a 200-page round almost never runs
// undisturbed, a 10-page chunk often does; wall-clock rounds (bench 1) then vary by ±30 % or more.
// `npm run bench` checks the same CPU-time ratio in bench 1 (bench/lib/cpu-per-page.ts); this script adds the
// per-stage cut and a before/after against another checkout:
//   node --conditions=source --import tsx bench/pipeline-cpu.ts [--rounds 25] [--root <another checkout, for a before/after>]
// --stages also times the pipeline cut after each stage (parse + validate, + match, + classify only, + state
// transitions, + takeChanges), each with its own engine, and prints what each stage adds per page.
import { parseArgs } from 'node:util';
import { cpuPerPage } from './lib/cpu-per-page.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Bench from './pipeline.bench.js';
import type * as Page from '../src/ledger/page.js';
import type * as Engine from '../src/rules/engine/engine.js';
import type * as Match from '../src/tail/global/match-account.js';

const PAGES = 200;

interface Modules {
  bench: typeof Bench;
  page: typeof Page;
  engine: typeof Engine;
  match: typeof Match;
}

async function load(root: string): Promise<Modules> {
  const at = (path: string) => pathToFileURL(resolve(root, path)).href;
  // A checkout from before the rules had sub-rooms keeps the engine at src/rules/engine.ts.
  const engine = ['src/rules/engine/engine.ts', 'src/rules/engine.ts'].find((p) =>
    existsSync(resolve(root, p)),
  );
  return {
    bench: (await import(at('bench/pipeline.bench.ts'))) as Modules['bench'],
    page: (await import(at('src/ledger/page.ts'))) as Modules['page'],
    engine: (await import(at(engine ?? 'src/rules/engine/engine.ts'))) as Modules['engine'],
    match: (await import(at('src/tail/global/match-account.ts'))) as Modules['match'],
  };
}

/** The stages --stages cuts the pipeline after; the full pipeline is the last. */
const STAGES = [
  'parse + validate',
  '+ match',
  '+ classify (needs)',
  '+ transitions',
  '+ takeChanges',
] as const;

function pipeline(m: Modules, upTo = STAGES.length - 1): (text: string) => void {
  const accounts = m.bench.watchedAccounts(100);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const ids = new Set(byId.keys());
  const engine = m.engine.createEngine(m.bench.benchRuleSet(50, accounts));
  return (text) => {
    const page = m.page.parsePageText('transactions', '/bench', text);
    if (upTo === 0) return;
    for (const record of page.records)
      for (const id of m.match.matchAccounts(record, ids)) {
        const account = byId.get(id);
        if (!account || upTo === 1) continue;
        if (upTo === 2) engine.needs({ source: 'transactions', record, account, traces: [] });
        else engine.evaluate({ source: 'transactions', record, account, traces: [] });
      }
    if (upTo === 4) engine.takeChanges();
  };
}

const { values } = parseArgs({
  options: { rounds: { type: 'string' }, root: { type: 'string' }, stages: { type: 'boolean' } },
});
const here = await load(resolve(import.meta.dirname, '..'));
const pages = await here.bench.ledgerPages(PAGES);
const measured = values.root ? await load(values.root) : here;
const cuts = values.stages ? STAGES.slice(0, -1).map((_, i) => pipeline(measured, i)) : [];
const [json = 0, full = 0, ...partial] = cpuPerPage(
  pages,
  [(text) => JSON.parse(text), pipeline(measured), ...cuts],
  Number(values.rounds ?? 25),
);
const load1 = (await import('node:os')).loadavg()[0]?.toFixed(2);
[json, ...partial, full].forEach((us, i, all) => {
  if (values.stages)
    console.log(`${i ? STAGES[i - 1] : 'JSON.parse'}: +${(us - (all[i - 1] ?? 0)).toFixed(1)} µs/page`);
});
console.log(
  `${values.root ?? 'this tree'}: JSON.parse ${json.toFixed(1)} µs/page, pipeline ${full.toFixed(1)} µs/page, ` +
    `ratio ${(json / full).toFixed(2)} (load ${load1})`,
);
