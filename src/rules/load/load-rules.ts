// Rule files → a compiled RuleSet, or every problem in every file at once (file:line:col, via the config loader),
// including the checks that span files (cross-file-issues.ts), which also read the files that failed validation.
import type { ConfigIssue } from '../../config/config-error.js';
import { sortIssues } from '../../config/config-error.js';
import { loadYaml } from '../../config/load-yaml.js';
import { InvalidUtf8Error, readUtf8File } from '../../config/read-utf8.js';
import { compileRules } from './compile.js';
import type { RuleSet } from './rule-set.js';
import { crossFileIssues } from './cross-file-issues.js';
import { expandPaths, type ListDir } from './expand-paths.js';
import { refsFromYaml, refsOfRule, type RuleRefs } from './rule-refs.js';
import { ruleWarnings } from './rule-warnings.js';
import { RuleFile, type Rule } from './schema.js';
import { templateIssues } from './template-issues.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export interface RuleText {
  readonly file: string;
  readonly text: string;
}

export interface LoadRulesOptions {
  /** Files or name patterns (`rules/*.yaml`), read with readFile. */
  readonly paths?: readonly string[];
  /** Already-read files (tests, `check` on stdin). */
  readonly files?: readonly RuleText[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile?: (path: string) => string;
  readonly listDir?: ListDir;
  /** Notifier names rules may use; `any` skips the check (rule tests). */
  readonly knownNotifiers: readonly string[] | 'any';
  readonly accounts: readonly WatchedAccount[];
  readonly explorerUrl?: string;
  /** Mustache template of an account's explorer link (`{{id}}`). */
  readonly accountUrl?: string;
  /**
   * Valid files of the previous load, by path (a reload passes the same map every time): a file whose text is
   * unchanged is not parsed again. Files with `*_file` keys are never kept (their secret may have changed).
   */
  readonly cache?: RuleFileCache;
}

export type RuleFileCache = Map<string, { readonly text: string; readonly rules: readonly Rule[] }>;

export interface LoadedRule {
  readonly file: string;
  readonly index: number;
  readonly rule: Rule;
}

/** `warnings`: doubts about valid rules (rule-warnings.ts); they never fail a load. */
export type LoadRulesResult =
  | { ok: true; ruleSet: RuleSet; rules: LoadedRule[]; warnings: ConfigIssue[] }
  | { ok: false; issues: ConfigIssue[] };

export function loadRules(options: LoadRulesOptions): LoadRulesResult {
  const readFile = options.readFile ?? readUtf8File;
  const { files: paths, empty } = expandPaths(options.paths ?? [], options.listDir);
  const issues: ConfigIssue[] = empty.map((p) =>
    wholeFile(p, 'matches no file; check the path and the pattern'),
  );
  const texts: RuleText[] = [...(options.files ?? [])];
  for (const file of paths) {
    try {
      texts.push({ file, text: readFile(file) });
    } catch (err) {
      if (err instanceof InvalidUtf8Error) {
        issues.push({ file, line: err.line, col: err.col, path: '', message: err.reason });
        continue;
      }
      issues.push(
        wholeFile(
          file,
          `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the path`,
        ),
      );
    }
  }
  const loaded: LoadedRule[] = [];
  const refs: RuleRefs[] = [];
  const warnings: ConfigIssue[] = [];
  for (const { file, text } of texts) {
    const rules = parsedRules(file, text, options, issues, refs);
    if (rules) warnings.push(...ruleWarnings(file, text, rules));
    rules?.forEach((rule, index) => {
      loaded.push({ file, index, rule });
      refs.push(refsOfRule(file, index, rule));
    });
  }
  for (const file of options.cache?.keys() ?? [])
    if (!texts.some((t) => t.file === file)) options.cache?.delete(file);
  issues.push(...crossFileIssues(refs, { ...options, texts }));
  if (issues.length) return { ok: false, issues: sortIssues(issues) };
  const ruleSet = compileRules(
    loaded.map((l) => l.rule),
    { accounts: options.accounts, explorerUrl: options.explorerUrl, accountUrl: options.accountUrl },
  );
  return { ok: true, ruleSet, rules: loaded, warnings: sortIssues(warnings) };
}

/** The file's rules, or undefined with its issues (and the refs its YAML still shows) pushed. */
function parsedRules(
  file: string,
  text: string,
  options: LoadRulesOptions,
  issues: ConfigIssue[],
  refs: RuleRefs[],
): readonly Rule[] | undefined {
  const cached = options.cache?.get(file);
  if (cached?.text === text) return cached.rules;
  const templates = templateIssues(file, text);
  issues.push(...templates);
  const result = loadYaml({ file, text, schema: RuleFile, env: options.env, readFile: options.readFile });
  if (!result.ok) {
    issues.push(...result.issues.map(relativeToRule));
    refs.push(...refsFromYaml(file, text, options.env));
    return undefined;
  }
  if (templates.length === 0 && !text.includes('_file'))
    options.cache?.set(file, { text, rules: result.value.rules });
  return result.value.rules;
}

function wholeFile(file: string, message: string): ConfigIssue {
  return { file, line: 0, col: 0, path: '', message };
}

/** `rules.3.when.debit` → `when.debit`: the line and column already say which rule. */
function relativeToRule(issue: ConfigIssue): ConfigIssue {
  const message = issue.message.replace(/ to rules\.\d+(\.?)/, (_m, dot: string) =>
    dot ? ' to ' : ' to the rule',
  );
  return { ...issue, path: issue.path.replace(/^rules\.\d+\.?/, ''), message };
}
