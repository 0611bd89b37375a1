import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type EngineEvent } from '../engine/engine.js';
import { createRuleStateRepo } from './state-repo.js';
import { openStateStore } from '../../state/store.js';
import { WATCHED, at, tx } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';

const RULES = ruleSetFrom(`rules:
  - id: burst
    summary: "{{match_count}} failed"
    when: { result: fail }
    window: { duration: 10m, count: 2 }
`);
const failed = (seconds: number): EngineEvent => ({
  source: 'transactions',
  record: tx({ result: 'FAIL_FEE', consensus_timestamp: at(seconds) }),
  account: WATCHED,
});
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('rule state repository', () => {
  it('carries a half-full window across a restart of the process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rule-state-'));
    dirs.push(dir);
    const store = openStateStore({ dir });
    const engine = createEngine(RULES, createRuleStateRepo(store).load());
    store.transaction(() => {
      engine.evaluate(failed(0));
      createRuleStateRepo(store).apply(engine.takeChanges());
    });
    store.close();

    const reopened = openStateStore({ dir });
    const restarted = createEngine(RULES, createRuleStateRepo(reopened).load());
    const { alerts } = restarted.evaluate(failed(60));
    reopened.close();

    expect(alerts.map((a) => a.summary)).toEqual(['2 failed']);
  });

  it('deletes the rows of dropped groups', () => {
    const store = openStateStore({ dir: ':memory:' });
    const repo = createRuleStateRepo(store);
    const engine = createEngine(RULES);
    engine.evaluate(failed(0));
    repo.apply(engine.takeChanges());

    engine.tick((1_700_000_000 + 601) * 1000);
    repo.apply(engine.takeChanges());

    expect([...repo.load().groups]).toEqual([]);
    store.close();
  });

  it('lists the stored keys of the rules asked for, and only theirs', () => {
    const store = openStateStore({ dir: ':memory:' });
    const repo = createRuleStateRepo(store);
    const engine = createEngine(
      ruleSetFrom(`rules:
  - id: burst
    summary: "{{match_count}} failed"
    when: { result: fail }
    window: { duration: 10m, count: 2 }
  - id: other
    summary: "{{match_count}} failed too"
    when: { result: fail }
    window: { duration: 10m, count: 3 }
`),
    );
    engine.evaluate(failed(0));
    repo.apply(engine.takeChanges());

    const stored = [...repo.load().groups].map((g) => [g.ruleId, g.key]);
    expect(stored.map(([rule]) => rule).sort()).toEqual(['burst', 'other']);
    expect(repo.keysOf(['other'])).toEqual(stored.filter(([rule]) => rule === 'other').map(([, key]) => key));
    expect(repo.keysOf(['gone'])).toEqual([]);
    store.close();
  });
});
