// One rule test file → its tests and the rule set they run against, or every problem at once (file:line:col): in
// the test file itself, in the rule files it names, and in what the two say about each other (check-test-file.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ConfigIssue } from '../config/config-error.js';
import { loadYaml } from '../config/load-yaml.js';
import { parseYaml } from '../config/parse-yaml.js';
import { compileRules } from '../rules/load/compile.js';
import { loadRules } from '../rules/load/load-rules.js';
import { watchedAccounts } from '../accounts/accounts-config.js';
import { checkTestFile } from './check-test-file.js';
import { markSummary } from './own-summary.js';
import { TestFile } from './schema.js';
import type { LoadedTestFile } from './types.js';

/** A test file is read whole and parsed with positions: a bound on what one file may cost. */
const MAX_TEST_FILE_CHARS = 16 * 1024 * 1024;

export type LoadTestFileResult = { ok: true; loaded: LoadedTestFile } | { ok: false; issues: ConfigIssue[] };

export interface LoadTestFileOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function loadTestFile(file: string, options: LoadTestFileOptions): LoadTestFileResult {
  const readFile = (path: string) => readFileSync(resolve(options.cwd, path), 'utf8');
  let text: string;
  try {
    text = readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return {
      ok: false,
      issues: [
        { file, line: 0, col: 0, path: '', message: `cannot read the file (${code}); check the path` },
      ],
    };
  }
  if (text.length > MAX_TEST_FILE_CHARS)
    return {
      ok: false,
      issues: [
        {
          file,
          line: 0,
          col: 0,
          path: '',
          message: `larger than ${MAX_TEST_FILE_CHARS} characters; split it into several test files`,
        },
      ],
    };
  const result = loadYaml({ file, text, schema: TestFile, env: options.env, readFile });
  if (!result.ok) return result;
  const spec = result.value;
  const accounts = watchedAccounts(spec.accounts);
  const rules = loadRules({
    paths: spec.rule_files.map((p) => (isAbsolute(p) ? p : join(dirname(file), p))),
    env: options.env,
    readFile,
    listDir: (dir) => readdirSync(resolve(options.cwd, dir)),
    knownNotifiers: 'any',
    accounts,
  });
  // The rules are checked against the test file's accounts, not a config file's.
  if (!rules.ok)
    return {
      ok: false,
      issues: rules.issues.map((i) => ({
        ...i,
        message: i.message.replace('accounts: in the config file', 'accounts: in the test file'),
      })),
    };
  const parsed = parseYaml(file, text);
  const ruleIds = rules.rules.map((r) => ({ id: r.rule.id, enabled: r.rule.enabled }));
  const issues = checkTestFile({ file, parsed, spec, accounts, rules: ruleIds });
  if (issues.length) return { ok: false, issues };
  // Compiled again with marked summaries: the engine renders each template as always, the test reads it back.
  const ruleSet = compileRules(
    rules.rules.map((r) => markSummary(r.rule)),
    { accounts },
  );
  return { ok: true, loaded: { file, parsed, spec, ruleSet, accounts } };
}
