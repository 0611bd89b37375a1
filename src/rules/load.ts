// Rule files → a compiled RuleSet, or every problem in every file at once (file:line:col, via the config loader),
// including the checks that span files: duplicate ids, unknown notifiers, unknown accounts.
import { readFileSync } from 'node:fs';
import type { ConfigIssue } from '../config/config-error.js';
import { sortIssues } from '../config/config-error.js';
import { didYouMean } from '../config/did-you-mean.js';
import { loadYaml } from '../config/load-yaml.js';
import { locate } from '../config/locate.js';
import { parseYaml } from '../config/parse-yaml.js';
import { compileRules, type RuleSet } from './compile.js';
import { expandPaths, type ListDir } from './expand-paths.js';
import { RuleFile, type Rule } from './schema.js';
import type { WatchedAccount } from '../tail/watched-account.js';

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
  readonly knownNotifiers: readonly string[];
  readonly accounts: readonly WatchedAccount[];
  readonly explorerUrl?: string;
}

export interface LoadedRule {
  readonly file: string;
  readonly index: number;
  readonly rule: Rule;
}

export type LoadRulesResult =
  { ok: true; ruleSet: RuleSet; rules: LoadedRule[] } | { ok: false; issues: ConfigIssue[] };

export function loadRules(options: LoadRulesOptions): LoadRulesResult {
  const readFile = options.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
  const { files: paths, empty } = expandPaths(options.paths ?? [], options.listDir);
  const issues: ConfigIssue[] = empty.map((p) =>
    wholeFile(p, 'matches no file; check the path and the pattern'),
  );
  const texts: RuleText[] = [...(options.files ?? [])];
  for (const file of paths) {
    try {
      texts.push({ file, text: readFile(file) });
    } catch (err) {
      issues.push(
        wholeFile(
          file,
          `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the path`,
        ),
      );
    }
  }
  const loaded: LoadedRule[] = [];
  for (const { file, text } of texts) {
    const result = loadYaml({ file, text, schema: RuleFile, env: options.env, readFile: options.readFile });
    if (!result.ok) issues.push(...result.issues.map(relativeToRule));
    else result.value.rules.forEach((rule, index) => loaded.push({ file, index, rule }));
  }
  issues.push(...crossFileIssues(loaded, texts, options));
  if (issues.length) return { ok: false, issues: sortIssues(issues) };
  const ruleSet = compileRules(
    loaded.map((l) => l.rule),
    { accounts: options.accounts, explorerUrl: options.explorerUrl },
  );
  return { ok: true, ruleSet, rules: loaded };
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

function crossFileIssues(
  loaded: readonly LoadedRule[],
  texts: readonly RuleText[],
  options: LoadRulesOptions,
): ConfigIssue[] {
  const docs = new Map(texts.map((t) => [t.file, parseYaml(t.file, t.text)]));
  const at = (l: LoadedRule, path: (string | number)[], message: string): ConfigIssue => {
    const parsed = docs.get(l.file);
    const { line, col } = parsed?.lines.linePos(locate(parsed.documents[0], ['rules', l.index, ...path])) ?? {
      line: 0,
      col: 0,
    };
    return { file: l.file, line, col, path: path.join('.'), message };
  };
  const issues: ConfigIssue[] = [];
  const firstById = new Map<string, ConfigIssue>();
  const notifiers = new Set(options.knownNotifiers);
  const ids = new Set(options.accounts.map((a) => a.id));
  const names = options.accounts.map((a) => a.name);
  for (const l of loaded) {
    const first = firstById.get(l.rule.id);
    if (first)
      issues.push(
        at(
          l,
          ['id'],
          `duplicate rule id "${l.rule.id}", first defined at ${first.file}:${first.line}:${first.col}; rule ids must be unique`,
        ),
      );
    else firstById.set(l.rule.id, at(l, ['id'], ''));
    l.rule.notify.forEach((name, i) => {
      if (notifiers.has(name)) return;
      const guess = didYouMean(name, [...notifiers]);
      issues.push(
        at(
          l,
          ['notify', i],
          `unknown notifier "${name}"; ${guess ? `did you mean "${guess}"?` : 'define it under notifiers: in the config file'}`,
        ),
      );
    });
    if (l.rule.accounts === 'all') continue;
    l.rule.accounts.ids?.forEach((id, i) => {
      if (!ids.has(id))
        issues.push(
          at(
            l,
            ['accounts', 'ids', i],
            `account ${id} is not watched; add it under accounts: in the config file or remove it here`,
          ),
        );
    });
    l.rule.accounts.names?.forEach((name, i) => {
      if (names.includes(name)) return;
      const guess = didYouMean(name, names);
      issues.push(
        at(
          l,
          ['accounts', 'names', i],
          `no watched account is named "${name}"; ${guess ? `did you mean "${guess}"?` : 'check the names under accounts: in the config file'}`,
        ),
      );
    });
  }
  return issues;
}
