// `ledger-sentinel test <files>`: runs rule unit tests (YAML: input records, the alerts expected) against the rule
// files they name, with no service, state or network. Exit 0 all passed, 1 a test failed, 2 a file is invalid.
// The command only reads argv, prints and picks the exit code; loading, running and comparing is src/rule-test/.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatIssue } from '../../config/config-error.js';
import { loadTestFile } from '../../rule-test/load-test-file.js';
import { runTestFile } from '../../rule-test/run-test-file.js';
import { expandPaths } from '../../rules/load/expand-paths.js';
import type { Command } from '../command.js';

const USAGE = `Usage: ledger-sentinel test <file>...

Runs rule unit tests: each file names rule files, the watched accounts, and tests of input records (transactions,
staking rewards, call traces, at given times) with the alerts expected (rule, account, firing/resolved, time,
rendered summary). Runs without any service. Prints one line per test, ok or FAIL with its file:line:col, and
for a failure each expected alert that did not fire as written beside what fired instead. Patterns like
rules/tests/*.yaml are expanded (in the file name). The format: rules/README.md, "Testing rules".

Exit codes: 0 every test passed, 1 a test failed, 2 a test file or a rule file it names is invalid (each error
printed as file:line:col path: message), or bad usage.
`;

export const test: Command = {
  name: 'test',
  summary: 'run rule unit tests (expected alerts for given records), no service needed',
  usage: USAGE,
  async run(ctx) {
    let files: string[];
    try {
      files = parseArgs({
        args: [...ctx.argv],
        options: {},
        allowPositionals: true,
        strict: true,
      }).positionals;
    } catch (err) {
      ctx.stderr.write(`ledger-sentinel test: ${(err as Error).message}. Run ledger-sentinel test --help.\n`);
      return 2;
    }
    if (!files.length) {
      ctx.stderr.write(
        'ledger-sentinel test: name the test files, e.g. ledger-sentinel test rules/tests/*.yaml\n',
      );
      return 2;
    }
    const expanded = expandPaths(files, (dir) => readdirSync(resolve(ctx.cwd, dir)));
    let invalid = expanded.empty.length;
    for (const pattern of expanded.empty)
      ctx.stderr.write(`${pattern}: matches no file; check the path and the pattern\n`);
    let passed = 0;
    let failed = 0;
    for (const file of expanded.files) {
      if (ctx.signal.aborted) break;
      const result = loadTestFile(file, { cwd: ctx.cwd, env: ctx.env });
      if (!result.ok) {
        invalid += 1;
        for (const issue of result.issues) ctx.stderr.write(`${formatIssue(issue)}\n`);
        continue;
      }
      for (const outcome of await runTestFile(result.loaded)) {
        if (outcome.passed) passed += 1;
        else failed += 1;
        ctx.stdout.write(`${outcome.lines.join('\n')}\n`);
      }
    }
    ctx.stdout.write(`${summaryLine(passed, failed, invalid, expanded.files.length)}\n`);
    return invalid ? 2 : failed ? 1 : 0;
  },
};

function summaryLine(passed: number, failed: number, invalid: number, files: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [`${passed} passed`, ...(failed ? [`${failed} failed`] : [])];
  const bad = invalid ? `; ${plural(invalid, 'file')} invalid` : '';
  return `${plural(passed + failed, 'test')} in ${plural(files, 'file')}: ${parts.join(', ')}${bad}`;
}
