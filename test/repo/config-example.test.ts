// config.example.yaml is the reference users copy from: it must validate, name every key the schema knows
// (so a new key cannot ship undocumented), and work with the shipped example rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatIssue } from '../../src/config/config-error.js';
import { loadConfigFile } from '../../src/config-file/load.js';
import { Config } from '../../src/config-file/schema.js';
import { loadRules } from '../../src/rules/load/load-rules.js';
import { watchedAccounts } from '../../src/accounts/accounts-config.js';
import { REPO_DIR } from '../helpers/shared.js';
import { startCli } from '../integration/cli-harness.js';

const EXAMPLE = join(REPO_DIR, 'config.example.yaml');
// The example's *_file secrets live under /etc/ledger-sentinel/secrets; stand-ins keep the test hermetic.
const readFile = (path: string) => {
  if (!path.startsWith('/etc/ledger-sentinel/secrets/')) return readFileSync(path, 'utf8');
  if (path.endsWith('-bot-token'))
    return path.includes('slack') ? 'xoxb-0000-stand-in-token' : '123456789:AAH-stand-in-token';
  return /url|webhook/.test(path) ? 'https://hooks.example.com/services/T0/B0/stand-in' : `secret-of-${path}`;
};

/** Every object key anywhere in the schema (through wrappers, arrays, records, unions, lazies). */
function schemaKeys(
  schema: z.core.$ZodType,
  found = new Set<string>(),
  seen = new Set<unknown>(),
): Set<string> {
  if (seen.has(schema)) return found;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const walk = (child: unknown) => child && schemaKeys(child as z.core.$ZodType, found, seen);
  if (def.type === 'object') {
    for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) {
      found.add(key);
      walk(child);
    }
  }
  for (const field of ['innerType', 'in', 'out', 'element', 'valueType', 'schema']) walk(def[field]);
  if (Array.isArray(def.options)) def.options.forEach(walk);
  if (def.type === 'lazy') walk((def.getter as () => unknown)());
  return found;
}

describe('config.example.yaml', () => {
  it('is a valid config', () => {
    const result = loadConfigFile(EXAMPLE, { env: {}, readFile });

    const problems = result.ok ? [] : result.issues.map(formatIssue);

    expect(problems).toEqual([]);
  });

  it('documents every key of the config schema', () => {
    const text = readFileSync(EXAMPLE, 'utf8');

    const missing = [...schemaKeys(Config)].filter(
      (key) => !new RegExp(`(^|[\\s{,#])${key}(_file)?:`, 'm').test(text),
    );

    expect(missing).toEqual([]);
  });

  it('defines every notifier the example rules name', () => {
    const result = loadConfigFile(EXAMPLE, { env: {}, readFile });
    if (!result.ok) throw new Error(result.issues.map(formatIssue).join('\n'));

    const rules = loadRules({
      paths: [join(REPO_DIR, 'rules/*.yaml')],
      env: {},
      knownNotifiers: Object.keys(result.value.notifiers),
      accounts: watchedAccounts(result.value.accounts),
    });

    expect(rules.ok ? [] : rules.issues.map(formatIssue)).toEqual([]);
  });

  it('points editors at config.schema.json', () => {
    const first = readFileSync(EXAMPLE, 'utf8').split('\n')[0];

    expect(first).toBe('# yaml-language-server: $schema=./config.schema.json');
  });

  it('passes its own "Validate with" command, run as written from the repository root', async () => {
    const line = readFileSync(EXAMPLE, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('# Validate with:'));
    const argv = (line ?? '').replace('# Validate with:', '').trim().split(/\s+/);

    const run = startCli(argv.slice(1), { cwd: REPO_DIR });
    const code = await run.done;

    expect(argv.slice(0, 3)).toEqual(['ledger-sentinel', 'check', '--offline']);
    expect(run.stderr()).toBe('');
    expect(code).toBe(0);
  });
});
