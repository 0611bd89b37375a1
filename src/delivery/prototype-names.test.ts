// Names that Object.prototype answers to, swept through every place a user-supplied name reads a label or a
// variable: matchers (API silences, inhibit rules), routes, config silences, group_by, account selectors and
// templates. Each must read own keys only, and a name no alert carries is refused where it is written.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAll } from '../app/load-all.js';
import { createEngine } from '../rules/engine/engine.js';
import { compileTemplate, renderLayered } from '../rules/template/render-template.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { failedEvent } from '../../test/fixtures/rules/events.js';
import { ruleSetFrom } from '../../test/fixtures/rules/rule-set.js';
import { OTHER, WATCHED } from '../../test/fixtures/rules/records.js';
import { loadRules } from '../rules/load/load-rules.js';
import { compileInhibitRules, findInhibitor } from './inhibit-rules.js';
import { compileMatcher, type MatchOp } from './matchers.js';
import { findSilence, routeAlert } from './route.js';

const NAMES = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-proto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG = `ledger: { base_url: "http://127.0.0.1:1" }
accounts:
  - { id: 0.0.1001, name: treasury, labels: { team: ops } }
notifiers:
  ops: { kind: console }
rules: { paths: [rules.yaml] }
`;
const RULES = `rules:
  - id: failed
    summary: "failed"
    when: { result: fail }
`;

function load(name: string, config: string) {
  const sub = mkdtempSync(join(dir, 'c-'));
  writeFileSync(join(sub, 'config.yaml'), CONFIG + config);
  writeFileSync(join(sub, 'rules.yaml'), RULES);
  const result = loadAll(join(sub, 'config.yaml'), { env: {} });
  return result.ok ? [] : result.issues.map((i) => `${i.line}:${i.col} ${i.path}: ${i.message}`);
}

function loadRulesText(text: string): string {
  const result = loadRules({
    files: [{ file: 'rules.yaml', text }],
    env: {},
    knownNotifiers: 'any',
    accounts: [WATCHED, OTHER],
  });
  return result.ok ? 'ok' : result.issues.map((i) => `${i.line}:${i.col} ${i.message}`).join('\n');
}

describe.each(NAMES)('the name %s', (name) => {
  const alert = testAlert();

  it.each(['=', '=~', '!~'] as MatchOp[])('as a matcher (%s) never reads Object.prototype', (op) => {
    const compiled = compileMatcher({ name, op, value: op === '=' ? 'x' : '.+' });
    const positive = op !== '!~';

    if (name === '__proto__') expect(compiled).toMatch(/invalid matcher name "__proto__"/);
    else if (typeof compiled === 'string') throw new Error(compiled);
    else expect(compiled.test(alert)).toBe(!positive);
  });

  it('in a route or a config silence matches no alert without that label', () => {
    const labels = { [name]: '[object Object]' };
    const routes = routeAlert(alert, [{ match: { labels }, notify: ['pager'] }]);
    const silence = findSilence(alert, 'ops', [{ labels, ends_at: '2099-01-01T00:00:00Z', comment: '' }], 0);

    expect([routes, silence]).toEqual([['ops'], undefined]);
  });

  it('in an inhibit rule`s equal does not make two alerts agree', () => {
    const [rule] = compileInhibitRules([
      { source_matchers: ['severity="critical"'], target_matchers: ['severity="warning"'], equal: [name] },
    ]);
    const source = testAlert({ labels: {} });
    const target = testAlert({ severity: 'warning', labels: { [name]: 'x' } });

    expect(findInhibitor(rule ? [rule] : [], [source], target)).toBeUndefined();
  });

  it('in a route, a config silence and an inhibit rule is refused at file:line:col with the labels', () => {
    const issues = load(
      name,
      `routes:
  - { match: { labels: { ${name}: x } }, notify: [ops] }
silences:
  - { labels: { ${name}: x }, ends_at: "2099-01-01T00:00:00Z" }
inhibit_rules:
  - { source_matchers: ['${name}="x"'], target_matchers: ['rule="failed"'] }
`,
    );
    const refused =
      name === '__proto__' ? /cannot be a key|invalid matcher name/ : /no alert carries the label .*team/;

    expect(issues).toHaveLength(3);
    expect(issues.every((i) => refused.test(i) && /^\d+:\d+ /.test(i) && !i.startsWith('0:'))).toBe(true);
  });

  it('as group_by labels.<name> and in an account selector reads no inherited value', () => {
    const rules = `rules:
  - id: failed
    summary: "{{account.name}}"
    when: { result: fail }
    group_by: [account, labels.${name}]
  - id: selected
    summary: "selected"
    accounts: { labels: { ${name}: "[object Object]" } }
    when: { result: fail }
`;
    if (name === '__proto__') {
      expect(loadRulesText(rules)).toMatch(/cannot be a key/);
      return;
    }
    const { alerts } = createEngine(ruleSetFrom(rules)).evaluate(failedEvent(0));

    expect(alerts.map((a) => [a.ruleId, a.labels[`labels.${name}`]])).toEqual([['failed', '']]);
  });

  it('in a template renders nothing, at the top, under labels and inside a section', () => {
    const view = { labels: { team: 'ops' }, records: [{ memo: 'm' }] };
    const templates = [`{{${name}}}`, `{{labels.${name}}}`, `{{#records}}{{${name}}}{{/records}}`];
    const rendered = templates.flatMap((t) => [
      renderLayered(`[${t}]`, [view]),
      compileTemplate(`[${t}]`)(view),
    ]);

    expect(new Set(rendered)).toEqual(new Set(['[]']));
  });
});

describe('own keys still work', () => {
  it('finds a label that is really called constructor', () => {
    const alert = testAlert({ labels: { constructor: 'ops' } });
    const matcher = compileMatcher({ name: 'constructor', op: '=', value: 'ops' });

    expect(typeof matcher !== 'string' && matcher.test(alert)).toBe(true);
    expect(renderLayered('{{labels.constructor}} {{memo.length}}', [{ ...alert, memo: 'abc' }])).toBe(
      'ops 3',
    );
  });
});

describe('every inherited member, not only the usual six', () => {
  const inherited = [
    ...Object.getOwnPropertyNames(Object.prototype),
    ...Object.getOwnPropertyNames(Array.prototype),
    ...Object.getOwnPropertyNames(String.prototype),
    // A list's and a text's length are their own (`{{memo.length}}` works, as in mustache).
  ].filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n) && n !== '__proto__' && n !== 'length');

  it('is read as missing by matchers, routes and templates', () => {
    const alert = testAlert({ records: [] });
    const view = { labels: { team: 'ops' }, list: [1], text: 'abc' };

    const leaks = inherited.filter((name) => {
      const matcher = compileMatcher({ name, op: '=~', value: '.+' });
      const matched = typeof matcher === 'string' || matcher.test(alert);
      const routed = routeAlert(alert, [{ match: { labels: { [name]: '' } }, notify: ['x'] }]).length > 1;
      const tags = [`{{${name}}}`, `{{labels.${name}}}`, `{{list.${name}}}`, `{{text.${name}}}`];
      const rendered = tags.map((t) => renderLayered(t, [view]) + compileTemplate(t)(view)).join('');
      return matched || routed || rendered !== '';
    });

    expect(inherited.length).toBeGreaterThan(40);
    expect(leaks).toEqual([]);
  });
});
