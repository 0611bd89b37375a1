import { describe, expect, it } from 'vitest';
import type { Loaded } from './load-all.js';
import { setupNotices } from './setup-notices.js';

function loaded(rules: number, accounts: number, notifiers: string[]): Loaded {
  return {
    config: { notifiers: Object.fromEntries(notifiers.map((n) => [n, { kind: 'console' }])) },
    accounts: Array.from({ length: accounts }, (_, i) => ({ id: `0.0.${1000 + i}` })),
    ruleSet: { rules: Array.from({ length: rules }, (_, i) => ({ id: `r${i}` })) },
  } as unknown as Loaded;
}

describe('setupNotices', () => {
  it('names each thing a fresh setup lacks, with where to set it', () => {
    const notices = setupNotices(loaded(0, 0, []));

    expect(notices).toHaveLength(3);
    expect(notices[0]).toMatch(/^No rule is enabled, so no alert can fire\. .*rules\.files/);
    expect(notices[1]).toMatch(/^No account is watched, so nothing is tailed\. .*config\.accounts/);
    expect(notices[2]).toMatch(/^No notifier is configured: .*config\.notifiers/);
  });

  it('adds each rule warning at its place, so the log and the status page show it', () => {
    const warning = { file: 'rules/a.yaml', line: 3, col: 20, path: 'when.type.0', message: 'not known' };
    const withWarning = { ...loaded(1, 1, ['ops-slack']), warnings: [warning] } as Loaded;

    expect(setupNotices(withWarning)).toEqual(['Rule warning: rules/a.yaml:3:20 when.type.0: not known']);
  });

  it('says nothing once rules, accounts and a notifier are there', () => {
    expect(setupNotices(loaded(1, 1, ['ops-slack']))).toEqual([]);
  });
});
