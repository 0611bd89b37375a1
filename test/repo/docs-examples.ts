// Every YAML example of the docs, extracted with what it is (docs/architecture.md, "Working agreements"): an
// HTML comment right before the fence says the kind, `<!-- docs-example: KIND -->`; without one the kind is
// inferred from the top-level keys, and a block that cannot be inferred is itself a failure that says which
// marker to add. Each check returns problems as `<file>:<line> …` lines, the line being the doc's own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { formatIssue, type ConfigIssue } from '../../src/config/config-error.js';
import { loadYaml } from '../../src/config/load-yaml.js';
import { CONFIG_SECTIONS, Config } from '../../src/config-file/schema.js';
import { loadConfigFile } from '../../src/config-file/load.js';
import { loadRules } from '../../src/rules/load/load-rules.js';
import { When, Window } from '../../src/rules/load/schema.js';
import { watchedAccounts } from '../../src/accounts/accounts-config.js';
import { REPO_DIR } from '../helpers/shared.js';

export const KINDS = ['config', 'config-fragment', 'rules', 'rules-fragment', 'values', 'other'] as const;
export type Kind = (typeof KINDS)[number];

export interface DocExample {
  /** Relative to the repository, e.g. docs/deployment.md. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly kind: Kind | undefined;
  /** Why the kind is what it is: "marker" or "inferred from …", or why it could not be inferred. */
  readonly why: string;
  readonly text: string;
}

const MARKER = /^\s*<!--\s*docs-example:\s*([a-z-]+)(?::\s*(.+?))?\s*-->\s*$/;
const RULE_KEYS = new Set(['when', 'window']);

/** Every ```yaml block of the files, with its kind. */
export function docExamples(files: readonly string[]): DocExample[] {
  return files.flatMap((file) => examplesOf(file, readFileSync(join(REPO_DIR, file), 'utf8')));
}

/** The ```yaml blocks of one Markdown text. */
export function examplesOf(file: string, markdown: string): DocExample[] {
  const lines = markdown.split('\n');
  const found: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```ya?ml\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    const text = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    found.push({ file, line: i + 1, text, ...kindOf(lines[i - 1] ?? '', text) });
    i = end;
  }
  return found;
}

function kindOf(previous: string, text: string): { kind: Kind | undefined; why: string } {
  const marker = MARKER.exec(previous);
  if (marker) {
    const kind = KINDS.find((k) => k === marker[1]);
    if (!kind)
      return {
        kind: undefined,
        why: `unknown docs-example kind "${marker[1]}"; use one of ${KINDS.join(', ')}`,
      };
    if (kind === 'other' && !marker[2])
      return { kind: undefined, why: 'docs-example: other needs a reason: `other: <what it is>`' };
    return { kind, why: 'marker' };
  }
  // rules/README.md lists several `when:` examples per block (repeated keys: not one YAML mapping).
  const topKeys = [...text.matchAll(/^([a-z_]+):/gm)].map((m) => m[1]!);
  if (topKeys.length > 0 && topKeys.every((k) => RULE_KEYS.has(k)))
    return { kind: 'rules-fragment', why: 'inferred from when:/window:' };
  let data: unknown;
  try {
    data = parse(text);
  } catch (err) {
    return { kind: undefined, why: `not valid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  const keys = data && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
  const add = `add <!-- docs-example: KIND --> on the line before the fence (KIND: ${KINDS.join(', ')}; other: <what>)`;
  if (keys.length === 0)
    return { kind: undefined, why: `cannot tell what it is (no top-level keys); ${add}` };
  if (keys.includes('rules') && Array.isArray((data as { rules: unknown }).rules))
    return { kind: 'rules', why: 'inferred from rules: [...]' };
  if (keys.every((k) => RULE_KEYS.has(k)))
    return { kind: 'rules-fragment', why: 'inferred from when:/window:' };
  if (keys.every((k) => k in CONFIG_SECTIONS))
    return keys.includes('ledger')
      ? { kind: 'config', why: 'inferred from config sections with ledger:' }
      : { kind: 'config-fragment', why: 'inferred from config sections' };
  return {
    kind: undefined,
    why: `top-level keys ${keys.join(', ')} are neither config sections nor rules; ${add}`,
  };
}

/** Config sections alone, each optional, without the checks across sections (the rest of the file is elsewhere). */
const ConfigFragment = z.strictObject(CONFIG_SECTIONS).partial();

/** The example's problems, formatted `file:line:col path: message` with the doc's own line numbers. */
export function checkExample(example: DocExample): string[] {
  const at = (issues: readonly ConfigIssue[]) =>
    issues.map((i) =>
      formatIssue({ ...i, file: example.file, line: i.line > 0 ? example.line + i.line : example.line }),
    );
  const common = { file: example.file, text: example.text, env: {}, offline: true } as const;
  switch (example.kind) {
    case 'config': {
      const result = loadYaml({ ...common, schema: Config });
      return result.ok ? [] : at(result.issues);
    }
    case 'config-fragment': {
      if (parse(example.text) === null) return [];
      const result = loadYaml({ ...common, schema: ConfigFragment });
      return result.ok ? [] : at(result.issues);
    }
    case 'rules': {
      const result = loadRules({
        files: [{ file: example.file, text: example.text }],
        env: {},
        knownNotifiers: 'any',
        accounts: exampleAccounts(),
      });
      return result.ok ? [] : at(result.issues);
    }
    case 'rules-fragment':
      return ruleFragmentProblems(example);
    default:
      return [];
  }
}

/** `when:` / `window:` examples, several per block (rules/README.md): each part against its schema. */
function ruleFragmentProblems(example: DocExample): string[] {
  const parts = example.text.split(/\n(?=when:|window:)/).filter((p) => /^(when|window):/m.test(p));
  return parts.flatMap((part) => {
    const data = (parse(part) ?? {}) as Record<string, unknown>;
    const result = 'when' in data ? When.safeParse(data.when) : Window.safeParse(data.window);
    return (result.error?.issues ?? []).map(
      (i) =>
        `${example.file}:${example.line} ${part.trim().split('\n')[0]}: ${i.path.join('.')} ${i.message}`,
    );
  });
}

let accounts: ReturnType<typeof watchedAccounts> | undefined;
/** Rule examples name accounts of config.example.yaml (treasury-hot, …). */
function exampleAccounts() {
  if (accounts) return accounts;
  const loaded = loadConfigFile(join(REPO_DIR, 'config.example.yaml'), { env: {}, offline: true });
  accounts = loaded.ok ? watchedAccounts(loaded.value.accounts) : [];
  return accounts;
}
