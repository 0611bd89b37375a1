import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssue } from './config-error.js';
import { loadBatched } from './load-batched.js';
import { loadYaml } from './load-yaml.js';
import { splitSequence } from './split-sequence.js';

const Entry = z.strictObject({
  id: z.string(),
  labels: z.record(z.string(), z.string()).default({}),
  token: z.string().optional(),
});
const Schema = z.strictObject({ accounts: z.array(Entry).default([]), other: z.unknown().optional() });

function accounts(n: number, indent = '  '): string {
  return Array.from(
    { length: n },
    (_, i) => `${indent}- id: "0.0.${i}"\n${indent}  labels: { team: t${i % 3}, env: prod }`,
  ).join('\n');
}

const options = (text: string, env: Record<string, string> = {}) => ({
  file: 'c.yaml',
  text,
  schema: Schema,
  env,
  readFile: () => 'from-a-file',
});
const whole = (text: string, env: Record<string, string> = {}) => loadYaml(options(text, env));
const lean = (text: string, env: Record<string, string> = {}) => loadBatched(options(text, env), 'accounts');

describe('loading a long list a batch at a time', () => {
  it('gives the same value as the whole-file load, across batches', () => {
    const text = `# watch list\nother: { a: 1 }\naccounts: # 1,234 entries\n${accounts(1234)}\n\n# end\nlast: x\n`;
    const value = Schema.extend({ last: z.string() });
    const batched = loadBatched({ ...options(text), schema: value }, 'accounts');
    expect(batched?.ok).toBe(true);
    expect(batched).toEqual(loadYaml({ ...options(text), schema: value }));
    expect(batched?.value.accounts).toHaveLength(1234);
    expect(batched?.value.accounts[1233]).toEqual({ id: '0.0.1233', labels: { team: 't0', env: 'prod' } });
  });

  it('reads every scalar form as the whole-file load does', () => {
    const items = [
      `  - id: "0.0.1"\n    labels: { a: "tab\\there \\u00e9", 'b c': 'it''s', d: "x #not a comment" } # one`,
      `  - id: '0.0.2'\n    labels:\n      folded: >-\n        two\n        lines\n      literal: |\n        kept\n`,
      `  - id: &i "0.0.3"\n    labels: { same: *i, plain: multi\n        line plain, yes: no, num: "12" }`,
      `  - id: 0.0.4\n    labels: { t: !!str 12, e: "", h: "0x1F" }`,
    ];
    const text = `accounts:\n${items.join('\n')}\n`;
    const batched = lean(text);
    expect(batched?.ok).toBe(true);
    expect(batched).toEqual(whole(text));
  });

  it('leaves to yaml the scalars js-yaml reads differently', () => {
    const Numbers = z.strictObject({ accounts: z.array(z.record(z.string(), z.unknown())) });
    for (const value of [
      '0b11',
      '+0x1F',
      '-0x1F',
      '+.5',
      '-.5e-2',
      '1_000',
      '1e400',
      '-2E+309',
      '!',
      '!!str e:',
    ]) {
      const text = `accounts:\n  - v: ${value}\n`;
      const expected = loadYaml({ ...options(text), schema: Numbers });
      const batched = loadBatched({ ...options(text), schema: Numbers }, 'accounts');
      expect(batched, value).toEqual(expected.ok ? expected : undefined);
    }
  });

  it('reads a list written at column 0 and expands ${VAR} in its items', () => {
    const text = `accounts:\n${accounts(3, '')}\n- id: "\${ID}"\nother: 1\n`;
    const batched = lean(text, { ID: '0.0.99' });
    expect(batched?.value.accounts.map((a) => a.id)).toEqual(['0.0.0', '0.0.1', '0.0.2', '0.0.99']);
    expect(batched).toEqual(whole(text, { ID: '0.0.99' }));
  });

  it('gives up on anything it cannot load plainly, and the whole-file load places the problem as always', () => {
    const cases = [
      `accounts:\n${accounts(600)}\n  - id: 7\n`, // a schema error in the second batch
      `accounts:\n${accounts(600)}\n  - id: "0.0.1\n`, // a syntax error
      `accounts:\n  - &a { id: "0.0.1" }\n${accounts(600)}\n  - *a\n`, // an alias into another batch
      `accounts:\n${accounts(2)}\n  - id: "\${MISSING}"\n`, // an unset variable
      `accounts:\n${accounts(2)}\n  - id: "0.0.5"\n    __proto__: { x: y }\n`,
      `accounts:\n${accounts(2)}\n  - id: "0.0.5"\n    token_file: /run/secret\n`, // a *_file key in an item
      `accounts: [{ id: "0.0.1" }]\n`, // a flow sequence
      `accounts:\n${accounts(2)}\naccounts:\n${accounts(2)}\n`, // the key twice
      `accounts:\n${accounts(2)}\n---\nother: 1\n`, // a second document
    ];
    for (const text of cases) expect(lean(text), text.slice(-40)).toBeUndefined();
    const result = whole(cases[0] ?? '');
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([
      'c.yaml:1202:9 accounts.600.id: expected a string, got 7; quote it to make it text',
    ]);
  });

  it('reads *_file secrets outside the list as the whole-file load does', () => {
    const schema = Schema.extend({ secret: z.string().optional() });
    const text = `secret_file: /run/s\naccounts:\n${accounts(3)}\n`;
    const batched = loadBatched({ ...options(text), schema }, 'accounts');
    expect(batched?.value.secret).toBe('from-a-file');
  });
});

describe('splitSequence', () => {
  it('cuts the items into batches and keeps the rest of the file', () => {
    const text = `a: 1\naccounts:\n  - x: 1\n    y: |\n      - not an item\n  -\n    x: 2\n  - x: 3\nb: 2\n`;
    const split = splitSequence(text, { key: 'accounts', batchSize: 2 });
    expect(split?.rest).toBe('a: 1\naccounts:\nb: 2\n');
    expect(split?.items).toBe(3);
    expect(split?.batches).toEqual([
      '  - x: 1\n    y: |\n      - not an item\n  -\n    x: 2\n',
      '  - x: 3\n',
    ]);
  });

  it('refuses a list it cannot read line by line', () => {
    for (const text of ['accounts:\n  x: 1\n', 'accounts:\n  - a\n b\n', 'accounts:\n\t- a\n', 'x: 1\n'])
      expect(splitSequence(text, { key: 'accounts', batchSize: 2 })).toBeUndefined();
  });
});
