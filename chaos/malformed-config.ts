// Scenario 5: 200 malformed config and rule files → every one rejected by `ledger-sentinel check --config` with a
// file:line:col message naming the bad file; no crash, no stack trace shown to the user. All 200 go through the
// CLI's own dispatcher in-process (runCli, what main.ts calls); a sample also runs as real child processes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { spawnSentinel } from '../bench/lib/daemon-process.js';
import { runCli } from '../src/cli/cli.js';
import { captureCli } from '../test/helpers/capture-cli.js';
import { malformedCases, validConfig, VALID_RULES, type MalformedCase } from './lib/malformed.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';

const SUITE = '5 malformed files';
const STACK = /^\s+at\s|\b(TypeError|ReferenceError|RangeError|SyntaxError|ZodError)\b|node:internal/m;

interface Outcome {
  readonly code: number | 'crash';
  readonly stdout: string;
  readonly stderr: string;
}

export interface Verdict {
  readonly rejected: boolean;
  readonly positioned: boolean;
  readonly stackTrace: boolean;
  readonly crashed: boolean;
}

/** Rejected (exit 1), every error line `file:line:col …` and the first one naming the bad file, no stack trace. */
export function judge(outcome: Outcome, badFile: string): Verdict {
  const lines = outcome.stderr.split('\n').filter((l) => l !== '' && !/^\d+ errors?$/.test(l));
  const positioned =
    lines.length > 0 &&
    lines.every((l) => /^.+:\d+:\d+ /.test(l)) &&
    lines.some((l) => l.startsWith(`${badFile}:`));
  return {
    rejected: outcome.code === 1,
    positioned,
    stackTrace: STACK.test(outcome.stdout + outcome.stderr),
    crashed: outcome.code === 'crash' || (outcome.code !== 0 && outcome.code !== 1),
  };
}

async function checkInProcess(configPath: string): Promise<Outcome> {
  const cli = captureCli(['check', '--config', configPath]);
  try {
    return { code: await runCli(cli.ctx), stdout: cli.out(), stderr: cli.err() };
  } catch (e) {
    return {
      code: 'crash',
      stdout: cli.out(),
      stderr: `${cli.err()}${e instanceof Error ? e.stack : String(e)}`,
    };
  }
}

async function checkChild(configPath: string): Promise<Outcome> {
  const child = spawnSentinel(['check', '--config', configPath]);
  const { code } = await child.exited;
  return { code: code ?? 'crash', stdout: child.stdout(), stderr: child.stderr() };
}

function write(dir: string, c: MalformedCase): { configPath: string; badFile: string } {
  const rulePath = join(dir, c.kind === 'rules' ? c.name : 'valid-rules.yaml');
  const configPath = join(dir, c.kind === 'config' ? c.name : `config-for-${c.name}`);
  const text = c.text.replace('RULES', rulePath).replace('STATE', join(dir, 'state'));
  if (c.kind === 'rules') writeFileSync(rulePath, text);
  writeFileSync(configPath, c.kind === 'config' ? text : validConfig(rulePath, join(dir, 'state')));
  return { configPath, badFile: c.kind === 'rules' ? rulePath : configPath };
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-malformed-'));
  try {
    writeFileSync(join(dir, 'valid-rules.yaml'), VALID_RULES);
    writeFileSync(join(dir, 'valid.yaml'), validConfig(join(dir, 'valid-rules.yaml'), join(dir, 'state')));
    const control = await checkInProcess(join(dir, 'valid.yaml'));
    const cases = malformedCases();
    const verdicts: (Verdict & { name: string; first: string })[] = [];
    for (const c of cases) {
      const { configPath, badFile } = write(dir, c);
      const outcome = await checkInProcess(configPath);
      verdicts.push({ ...judge(outcome, badFile), name: c.name, first: outcome.stderr.split('\n')[0] ?? '' });
    }
    const sample = cases.filter((_, i) => i % (ctx.quick ? 50 : 20) === 0);
    const childVerdicts: Verdict[] = [];
    for (const c of sample) {
      const { configPath, badFile } = write(dir, c);
      childVerdicts.push(judge(await checkChild(configPath), badFile));
    }
    const bad = (pick: (v: Verdict) => boolean) => verdicts.filter(pick).map((v) => `${v.name}: ${v.first}`);
    const notRejected = bad((v) => !v.rejected);
    const unpositioned = bad((v) => v.rejected && !v.positioned);
    ctx.log(`${SUITE}: e.g. ${verdicts[0]?.first}`);
    for (const line of [...notRejected, ...unpositioned].slice(0, 10)) ctx.log(`  problem: ${line}`);
    const all = [...verdicts, ...childVerdicts];
    return [
      checked(SUITE, 'control: the valid config passes check (exit 0)', control.code === 0 ? 1 : 0, '==', 1),
      figure(SUITE, 'malformed files', cases.length, {
        note: `${cases.filter((c) => c.kind === 'config').length} config, ${cases.filter((c) => c.kind === 'rules').length} rules`,
      }),
      checked(SUITE, 'accepted (not rejected)', notRejected.length, '==', 0),
      checked(SUITE, 'rejected without a file:line:col message for the file', unpositioned.length, '==', 0),
      checked(SUITE, 'crashes', all.filter((v) => v.crashed).length, '==', 0),
      checked(SUITE, 'stack traces shown', all.filter((v) => v.stackTrace).length, '==', 0),
      checked(
        SUITE,
        `child processes (sample of ${sample.length}): rejected with file:line:col`,
        childVerdicts.filter((v) => v.rejected && v.positioned).length,
        '==',
        sample.length,
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const malformedConfig: Scenario = { n: 5, name: '200 malformed config and rule files', run };
