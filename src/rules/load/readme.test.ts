// rules/README.md stays true: every YAML example in it is valid rule language.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RuleFile, When, Window } from './schema.js';

const readme = readFileSync(fileURLToPath(new URL('../../../rules/README.md', import.meta.url)), 'utf8');
const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
// A block is a whole file (rules:), or lines each starting a `when:` / `window:` example.
const examples = blocks.flatMap((block) =>
  block.startsWith('# yaml-language-server') || block.startsWith('rules:')
    ? [block]
    : block.split(/\n(?=when:|window:)/).filter((part) => /^(when|window):/m.test(part)),
);

function issues(example: string): unknown[] {
  const data = parse(example) as Record<string, unknown>;
  const result =
    'rules' in data
      ? RuleFile.safeParse(data)
      : 'when' in data
        ? When.safeParse(data.when)
        : Window.safeParse(data.window);
  return result.error?.issues ?? [];
}

describe('rules/README.md', () => {
  it('has examples', () => {
    expect(examples.length).toBeGreaterThan(25);
  });

  it.each(examples.flatMap((e) => e.split(/\n(?=when: |window: )/)).map((e) => [e.trim()]))(
    '%s',
    (example) => {
      const found = issues(example);

      expect(found).toEqual([]);
    },
  );
});
