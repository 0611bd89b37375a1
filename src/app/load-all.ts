// Config file + every rule file it names, validated together: what `run`, `check`, `demo`, `backtest` and a
// reload all start from. Rules are checked against the config's notifiers and accounts, so a rule naming a
// notifier that does not exist is an error here, not a silent non-delivery later.
import { readUtf8File } from '../config/read-utf8.js';
import { explorerUrls, type ExplorerUrls } from '../config/explorer-urls.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import { configForRules } from '../config-file/config-for-rules.js';
import type { ConfigIssue } from '../config/config-error.js';
import { loadConfigFile } from '../config-file/load.js';
import type { Config } from '../config-file/schema.js';
import { loadRules, type LoadedRule, type RuleFileCache } from '../rules/load/load-rules.js';
import type { RuleSet } from '../rules/load/compile.js';
import { watchedAccounts } from '../accounts/accounts-config.js';
import { configLabelIssues } from '../delivery/config-label-issues.js';
import { knownLabels } from '../delivery/known-labels.js';
import type { WatchedAccount } from '../accounts/watched-account.js';

export interface Loaded {
  readonly config: Config;
  readonly accounts: readonly WatchedAccount[];
  readonly ruleSet: RuleSet;
  readonly rules: readonly LoadedRule[];
  /** Rule paths as resolved (relative ones against the config file's folder). */
  readonly rulePaths: readonly string[];
  /** Doubts about valid rules (rules/load/rule-warnings.ts): logged, printed by `check`, shown on the status page. */
  readonly warnings?: readonly ConfigIssue[];
  /** Accounts named by EVM address or alias whose id is not known yet (set by app/account-resolution.ts). */
  readonly unresolved?: readonly UnresolvedAccount[];
}

export interface UnresolvedAccount {
  readonly account: WatchedAccount;
  /** The config entry, like `accounts[2].id`. */
  readonly entry: string;
  /** When it was first found unresolved (ms since the epoch). */
  readonly since: number;
}

export type LoadAllResult = { ok: true; loaded: Loaded } | { ok: false; issues: ConfigIssue[] };

export interface LoadAllOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile?: (path: string) => string;
  /** Validate without reading `*_file` secrets (`check --offline`): their keys are checked, their files not. */
  readonly offline?: boolean;
  /** Parsed rule files kept between the loads of one daemon (reloads), so unchanged files are not parsed again. */
  readonly ruleCache?: RuleFileCache;
}

export function loadAll(configPath: string, options: LoadAllOptions): LoadAllResult {
  const result = loadConfigFile(configPath, options);
  if (!result.ok) return { ok: false, issues: [...result.issues, ...ruleIssuesDespite(configPath, options)] };
  const config = result.value;
  const accounts = watchedAccounts(config.accounts);
  const rulePaths = config.rules.paths.map((p) => (isAbsolute(p) ? p : resolve(dirname(configPath), p)));
  const rules = loadRules({
    paths: rulePaths,
    env: options.env,
    ...(options.readFile ? { readFile: options.readFile } : {}),
    ...(options.ruleCache ? { cache: options.ruleCache } : {}),
    knownNotifiers: Object.keys(config.notifiers),
    accounts,
    ...explorerOptions(explorerUrls(config.explorer, config.ledger.base_url)),
  });
  if (!rules.ok) return rules;
  const labels = labelIssues(configPath, config, rules.rules, accounts, options);
  if (labels.length) return { ok: false, issues: labels };
  const { ruleSet, warnings } = rules;
  return { ok: true, loaded: { config, accounts, ruleSet, rules: rules.rules, rulePaths, warnings } };
}

/** The rule files' problems when the config has its own: every error in one run, not one file per fix. */
function ruleIssuesDespite(configPath: string, options: LoadAllOptions): ConfigIssue[] {
  let text: string;
  try {
    text = (options.readFile ?? readUtf8File)(configPath);
  } catch {
    return [];
  }
  const config = configForRules(configPath, text, options.env);
  if (!config) return [];
  const rules = loadRules({
    paths: config.rulePaths.map((p) => (isAbsolute(p) ? p : resolve(dirname(configPath), p))),
    env: options.env,
    ...(options.readFile ? { readFile: options.readFile } : {}),
    knownNotifiers: config.notifiers ?? [],
    accounts: config.accounts ?? [],
  });
  // References into a section that is itself invalid cannot be judged; its own errors say what to fix.
  const unjudged = (issue: ConfigIssue) =>
    (config.notifiers === undefined && /^notify\.\d+$/.test(issue.path)) ||
    (config.accounts === undefined && /^accounts\.(ids|names)\.\d+$/.test(issue.path));
  return rules.ok ? [] : rules.issues.filter((issue) => !unjudged(issue));
}

/** Routes, silences and inhibit rules on labels no alert carries (delivery/config-label-issues.ts). */
function labelIssues(
  configPath: string,
  config: Config,
  rules: readonly LoadedRule[],
  accounts: readonly WatchedAccount[],
  options: LoadAllOptions,
): ConfigIssue[] {
  const known = knownLabels({ rules: rules.map((r) => r.rule), accounts });
  const read = options.readFile ?? readUtf8File;
  return configLabelIssues(configPath, () => read(configPath), config, known);
}

function explorerOptions(urls: ExplorerUrls): { explorerUrl?: string; accountUrl?: string } {
  return {
    ...(urls.transactionUrl ? { explorerUrl: urls.transactionUrl } : {}),
    ...(urls.accountUrl ? { accountUrl: urls.accountUrl } : {}),
  };
}
