// The registry and the folder agree (renovate's datasource index test), and every documented example is valid.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONDITIONS } from './registry.js';
import { When } from '../load/schema.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const conditionFiles = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'registry.ts')
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const readme = readFileSync(fileURLToPath(new URL('../../../rules/README.md', import.meta.url)), 'utf8');

describe('condition registry', () => {
  it('lists exactly the condition files of this folder (file name = condition name, kebab-case)', () => {
    const registered = CONDITIONS.map((c) => c.name.replaceAll('_', '-')).sort();

    expect(registered).toEqual(conditionFiles);
  });

  it.each(CONDITIONS.map((c) => [c.name, c.example] as const))(
    '%s: its example is valid',
    (name, example) => {
      const when = parse(`${name}: ${example}`);

      const result = When.safeParse(when);

      expect(result.error?.issues ?? []).toEqual([]);
    },
  );

  it.each(CONDITIONS.map((c) => [c.name] as const))('%s: is documented in rules/README.md', (name) => {
    const heading = new RegExp(`^### \`${name}\``, 'm');

    expect(readme).toMatch(heading);
  });
});
