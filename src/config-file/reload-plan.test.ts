// What a reload swaps, section by section (docs/operations.md, "Reload"): a table over real config files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAll, type Loaded } from '../app/load-all.js';
import { changedParts, planReload } from './reload-plan.js';

const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = `ledger: { base_url: "http://127.0.0.1:9" }
accounts:
  - { id: 0.0.1003, name: treasury }
tail: { poll_interval: 1s }
rules: { paths: [rules.yaml] }
notifiers:
  ops: { kind: slack, webhook_url: "https://hooks.example.com/services/T/B/x" }
  other: { kind: slack, webhook_url: "https://hooks.example.com/services/T/B/y" }
state: { dir: ${join(dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
daemon: { tick_interval: 10s }
`;
const RULES = `rules:
  - id: a
    when: { result: fail }
    summary: s
    notify: [ops]
  - id: quiet
    when: { result: fail }
    window: { duration: 1h, absent: true }
    group_by: [account]
    summary: q
`;

let n = 0;
function load(config: string, rules = RULES): Loaded {
  n += 1;
  writeFileSync(join(dir, `c${n}.yaml`), config.replace('[rules.yaml]', `[r${n}.yaml]`));
  writeFileSync(join(dir, `r${n}.yaml`), rules);
  const result = loadAll(join(dir, `c${n}.yaml`), { env: {} });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.loaded;
}

describe('planReload', () => {
  it.each([
    ['nothing', BASE, RULES, [], []],
    ['a rule threshold', BASE, RULES.replace('summary: s', 'summary: t'), ['rules'], []],
    ['a notifier', BASE.replace('B/y', 'B/z'), RULES, ['notifiers', 'self_monitoring'], []],
    ['the routes', `${BASE}routes:\n  - { match: { rule: [a] }, notify: [other] }\n`, RULES, ['routes'], []],
    ['the tail', BASE.replace('poll_interval: 1s', 'poll_interval: 2s'), RULES, ['tail'], []],
    ['the tick', BASE.replace('tick_interval: 10s', 'tick_interval: 5s'), RULES, ['tick'], []],
    [
      'the API token',
      BASE.replace('port: 0 }', 'port: 0, api_token: abcdefghijklmnopqrstuvwxyz012345 }'),
      RULES,
      [],
      [],
    ],
    ['the port', BASE.replace('port: 0', 'port: 9999'), RULES, [], ['http.host', 'http.port']],
    [
      'the accounts',
      BASE.replace('name: treasury }', 'name: treasury }\n  - { id: 0.0.1004, name: ops }'),
      RULES,
      ['rules', 'accounts', 'self_monitoring'],
      [],
    ],
  ])('%s', (_name, config, rules, parts, restart) => {
    const plan = planReload(load(BASE), load(config, rules));

    expect(changedParts(plan)).toEqual(parts);
    expect(plan.restartNeeded).toEqual(restart);
  });

  it('keeps the state of a changed rule that groups the same way, not of one with another kind of window', () => {
    const before = load(BASE);

    const threshold = planReload(before, load(BASE, RULES.replace('duration: 1h', 'duration: 2h')));
    const kind = planReload(
      before,
      load(BASE, RULES.replace('duration: 1h, absent: true', 'duration: 1h, count: 3')),
    );

    expect(threshold.incompatibleRules).toEqual([]);
    expect(kind.incompatibleRules).toEqual(['quiet']);
  });
});
