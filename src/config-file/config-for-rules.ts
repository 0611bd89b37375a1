// What the rule files need of a config that failed validation: where they are, which notifiers and accounts exist.
// Read leniently from the YAML, so `check` reports the rule files' errors in the same run as the config's.
import { expandEnv } from '../config/expand-env.js';
import { parseYaml } from '../config/parse-yaml.js';
import { RulesConfig } from '../rules/load/rules-config.js';
import { AccountsConfig, watchedAccounts } from '../accounts/accounts-config.js';
import type { WatchedAccount } from '../accounts/watched-account.js';

export interface ConfigForRules {
  readonly rulePaths: readonly string[];
  /** Undefined when the section itself is invalid: rules' references to it cannot be judged. */
  readonly notifiers: readonly string[] | undefined;
  readonly accounts: readonly WatchedAccount[] | undefined;
}

/** Undefined when the file does not parse or its `rules:` section is itself invalid. */
export function configForRules(
  file: string,
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): ConfigForRules | undefined {
  const parsed = parseYaml(file, text);
  const [doc] = parsed.documents;
  if (parsed.issues.length || parsed.documents.length !== 1 || !doc) return undefined;
  expandEnv(doc.contents, env);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch {
    return undefined;
  }
  const config = isRecord(data) ? data : {};
  const rules = RulesConfig.safeParse(config.rules ?? {});
  if (!rules.success) return undefined;
  const accounts = AccountsConfig.safeParse(config.accounts);
  return {
    rulePaths: rules.data.paths,
    notifiers: isRecord(config.notifiers ?? {}) ? Object.keys(config.notifiers ?? {}) : undefined,
    accounts: accounts.success ? watchedAccounts(accounts.data) : undefined,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
