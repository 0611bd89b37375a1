// Config file + every rule file it names, validated together: what `run`, `check`, `demo`, `backtest` and a
// reload all start from. Rules are checked against the config's notifiers and accounts, so a rule naming a
// notifier that does not exist is an error here, not a silent non-delivery later.
import { explorerUrls, type ExplorerUrls } from '../config/explorer-urls.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ConfigIssue } from '../config/config-error.js';
import { loadConfigFile } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { loadRules, type LoadedRule } from '../rules/load.js';
import type { RuleSet } from '../rules/compile.js';
import { watchedAccounts } from '../tail/config.js';
import type { WatchedAccount } from '../tail/watched-account.js';

export interface Loaded {
  readonly config: Config;
  readonly accounts: readonly WatchedAccount[];
  readonly ruleSet: RuleSet;
  readonly rules: readonly LoadedRule[];
  /** Rule paths as resolved (relative ones against the config file's folder). */
  readonly rulePaths: readonly string[];
}

export type LoadAllResult = { ok: true; loaded: Loaded } | { ok: false; issues: ConfigIssue[] };

export interface LoadAllOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly readFile?: (path: string) => string;
}

export function loadAll(configPath: string, options: LoadAllOptions): LoadAllResult {
  const result = loadConfigFile(configPath, options);
  if (!result.ok) return result;
  const config = result.value;
  const accounts = watchedAccounts(config.accounts);
  const rulePaths = config.rules.paths.map((p) => (isAbsolute(p) ? p : resolve(dirname(configPath), p)));
  const rules = loadRules({
    paths: rulePaths,
    env: options.env,
    ...(options.readFile ? { readFile: options.readFile } : {}),
    knownNotifiers: Object.keys(config.notifiers),
    accounts,
    ...explorerOptions(explorerUrls(config.explorer, config.ledger.base_url)),
  });
  if (!rules.ok) return rules;
  return { ok: true, loaded: { config, accounts, ruleSet: rules.ruleSet, rules: rules.rules, rulePaths } };
}

function explorerOptions(urls: ExplorerUrls): { explorerUrl?: string; accountUrl?: string } {
  return {
    ...(urls.transactionUrl ? { explorerUrl: urls.transactionUrl } : {}),
    ...(urls.accountUrl ? { accountUrl: urls.accountUrl } : {}),
  };
}
