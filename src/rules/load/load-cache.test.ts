// The rule-file cache of reloads: an unchanged file is not parsed again, a changed one is, and a file that turns
// invalid reports its errors as on a first load.
import { describe, expect, it } from 'vitest';
import { loadRules, type LoadRulesOptions, type RuleFileCache } from './load-rules.js';

const rule = (id: string, summary: string) =>
  `rules:\n  - id: ${id}\n    when: { result: fail }\n    summary: ${summary}\n`;

function load(files: Record<string, string>, cache: RuleFileCache) {
  const options: LoadRulesOptions = {
    files: Object.entries(files).map(([file, text]) => ({ file, text })),
    env: {},
    knownNotifiers: 'any',
    accounts: [],
    cache,
  };
  return loadRules(options);
}

describe('rule file cache', () => {
  it('reuses the rules of unchanged files, parses changed ones, and reports a file that turned invalid', () => {
    const cache: RuleFileCache = new Map();
    const first = load({ 'a.yaml': rule('a', 'one'), 'b.yaml': rule('b', 'one') }, cache);

    const second = load({ 'a.yaml': rule('a', 'one'), 'b.yaml': rule('b', 'two') }, cache);
    const third = load(
      { 'a.yaml': rule('a', 'one'), 'b.yaml': rule('b', 'two').replace('result', 'resutl') },
      cache,
    );
    const fourth = load({ 'b.yaml': rule('b', 'two') }, cache);

    if (!first.ok || !second.ok) throw new Error('expected valid loads');
    expect(second.rules[0]?.rule).toBe(first.rules[0]?.rule);
    expect(second.rules[1]?.rule.summary).toBe('two');
    expect(third.ok).toBe(false);
    if (!third.ok)
      expect(third.issues.map((i) => `${i.file}:${i.line} ${i.path}`)).toEqual(['b.yaml:3 when.resutl']);
    expect(fourth.ok).toBe(true);
    expect([...cache.keys()]).toEqual(['b.yaml']);
  });
});
