// What the checks that span files read of a rule (its id, notifiers, accounts and group_by labels). A file that failed validation
// still has its references read, from the YAML itself, so its duplicate ids, unknown notifiers and unknown
// accounts are reported in the same run as its schema errors.
import { expandEnv } from '../../config/expand-env.js';
import { parseYaml } from '../../config/parse-yaml.js';
import { Rule } from './schema.js';
import { AccountId } from '../facts/values.js';

/** One rule's references. An entry that is not valid on its own is undefined: the schema reports it. */
export interface RuleRefs {
  readonly file: string;
  /** The rule's index under `rules:`. */
  readonly index: number;
  readonly id: string | undefined;
  readonly notify: readonly (string | undefined)[];
  readonly accountIds: readonly (string | undefined)[];
  readonly accountNames: readonly (string | undefined)[];
  /** `group_by` keys (`labels.<name>` ones are checked against the accounts' labels). */
  readonly groupBy: readonly (string | undefined)[];
}

export function refsOfRule(file: string, index: number, rule: Rule): RuleRefs {
  const accounts = rule.accounts === 'all' ? {} : rule.accounts;
  return {
    file,
    index,
    id: rule.id,
    notify: rule.notify,
    accountIds: accounts.ids ?? [],
    accountNames: accounts.names ?? [],
    groupBy: rule.group_by,
  };
}

/**
 * The references of a file that failed validation, read leniently from its YAML (after `${VAR}` expansion). A file
 * with a syntax error or more than one document gives none: the parser's recovered data is unreliable.
 */
export function refsFromYaml(
  file: string,
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): RuleRefs[] {
  const parsed = parseYaml(file, text);
  const [doc] = parsed.documents;
  if (parsed.issues.length || parsed.documents.length !== 1 || !doc) return [];
  expandEnv(doc.contents, env);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch {
    return [];
  }
  const rules = isRecord(data) && Array.isArray(data.rules) ? (data.rules as unknown[]) : [];
  return rules.flatMap((raw, index) => (isRecord(raw) ? [refsOfRaw(file, index, raw)] : []));
}

function refsOfRaw(file: string, index: number, raw: Record<string, unknown>): RuleRefs {
  const accounts = isRecord(raw.accounts) ? raw.accounts : {};
  return {
    file,
    index,
    id: Rule.shape.id.safeParse(raw.id).data,
    notify: listOf(raw.notify, (v) => (typeof v === 'string' ? v : undefined)),
    accountIds: listOf(accounts.ids, (v) => AccountId.safeParse(v).data),
    accountNames: listOf(accounts.names, (v) => (typeof v === 'string' ? v : undefined)),
    groupBy: listOf(raw.group_by, (v) => (typeof v === 'string' ? v : undefined)),
  };
}

function listOf<T>(value: unknown, item: (v: unknown) => T | undefined): (T | undefined)[] {
  return Array.isArray(value) ? value.map(item) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
