// What the rule files need of a config that failed validation: where they are, which notifiers and accounts exist.
// Read leniently from the YAML, so `check` reports the rule files' errors in the same run as the config's.
import { expandEnv } from '../config/expand-env.js';
import { parseYaml } from '../config/parse-yaml.js';
import { RulesConfig } from '../rules/config.js';
import type { WatchedAccount } from '../tail/watched-account.js';

export interface ConfigForRules {
  readonly rulePaths: readonly string[];
  readonly notifiers: readonly string[];
  readonly accounts: readonly WatchedAccount[];
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
  return {
    rulePaths: rules.data.paths,
    notifiers: isRecord(config.notifiers) ? Object.keys(config.notifiers) : [],
    accounts: Array.isArray(config.accounts) ? config.accounts.flatMap(accountOf) : [],
  };
}

/** An entry as far as rules refer to it (id, name, labels); the config's own errors are reported elsewhere. */
function accountOf(entry: unknown): WatchedAccount[] {
  if (!isRecord(entry)) return [];
  const id = text(entry.id) ?? text(entry.rewards_alias);
  if (id === undefined) return [];
  const labels = isRecord(entry.labels)
    ? Object.fromEntries(Object.entries(entry.labels).filter(([, v]) => typeof v === 'string'))
    : {};
  return [
    {
      id,
      name: text(entry.name) ?? id,
      labels: labels as Record<string, string>,
      priority: 0,
      rewardsPath: id,
    },
  ];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
