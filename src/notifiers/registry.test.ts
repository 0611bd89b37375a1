// The registry and the folders must agree (renovate's datasource index.spec.ts): a kind is a folder with a
// fixed shape, and every folder is registered.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NOTIFIER_KINDS } from './registry.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const NOT_KINDS = new Set(['testing']);
const folders = readdirSync(HERE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !NOT_KINDS.has(entry.name))
  .map((entry) => entry.name);

describe('notifier registry', () => {
  it('has exactly one entry per folder', () => {
    expect(Object.keys(NOTIFIER_KINDS).sort()).toEqual([...folders].sort());
  });

  it.each(folders)('%s has config.ts, <kind>.ts, message.ts and a test', (kind) => {
    const files = ['config.ts', `${kind}.ts`, 'message.ts', `${kind}.test.ts`];

    const missing = files.filter((file) => !existsSync(join(HERE, kind, file)));

    expect(missing).toEqual([]);
  });

  it.each(Object.keys(NOTIFIER_KINDS))('%s config rejects unknown keys', (kind) => {
    const result = NOTIFIER_KINDS[kind as keyof typeof NOTIFIER_KINDS].config.safeParse({
      kind,
      surely_a_typo: true,
    });

    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('surely_a_typo');
  });

  it.each(folders)('%s is documented in docs/notifiers.md', (kind) => {
    const docs = readFileSync(join(HERE, '..', '..', 'docs', 'notifiers.md'), 'utf8');

    expect(docs).toContain(`kind: ${kind}`);
  });
});
