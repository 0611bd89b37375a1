// One case per config error, with the exact message pinned (docs/architecture.md).
import { describe, expect, it } from 'vitest';
import { Notifiers, Routes, Silences, unknownNotifierRefs } from './schema.js';

function issues(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('notifiers schema', () => {
  it('accepts a config of every kind with defaults filled in', () => {
    const result = Notifiers.safeParse({
      'ops-slack': { kind: 'slack', webhook_url: 'https://hooks.slack.com/services/T/B/x' },
      mail: { kind: 'email', host: 'smtp.example.com', from: 'a@example.com', to: ['b@example.com'] },
      hook: { kind: 'webhook', url: 'https://example.com/h', signing_key: 'k' },
      am: { kind: 'alertmanager', url: 'http://alertmanager:9093' },
      console: { kind: 'console' },
    });

    expect(issues(result)).toEqual([]);
    expect(result.data?.['ops-slack']).toMatchObject({
      min_interval: 1000,
      group_wait: 10_000,
      group_max_listed: 10,
      deadline: 3_600_000,
    });
    expect(result.data?.mail).toMatchObject({ port: 587, security: 'starttls' });
    expect(result.data?.console).toMatchObject({ group_wait: 0 });
  });

  it.each([
    [
      'unknown kind',
      { x: { kind: 'pager' } },
      "x.kind: Invalid discriminator value. Expected 'alertmanager' | 'console' | 'discord' | 'email' | 'slack' | 'slack-app' | 'teams' | 'telegram' | 'webhook'",
    ],
    ['typo in a key', { x: { kind: 'console', group_wiat: '1s' } }, 'x: Unrecognized key: "group_wiat"'],
    [
      'bad duration',
      { x: { kind: 'console', group_wait: '10 minutes' } },
      'x.group_wait: expected a duration like "2s" or "10m", got "10 minutes"',
    ],
    ['empty secret', { x: { kind: 'slack', webhook_url: '' } }, 'x.webhook_url: must not be empty'],
    [
      'user without password',
      { x: { kind: 'email', host: 'h', from: 'a@b', to: ['c@d'], username: 'u' } },
      'x: username and password go together: set both or neither',
    ],
    [
      'bad name',
      { 'Ops Slack': { kind: 'console' } },
      'Ops Slack: invalid notifier name "Ops Slack": use lower-case letters, digits, - and _',
    ],
  ])('%s', (_name, input, message) => {
    expect(issues(Notifiers.safeParse(input))).toEqual([message]);
  });
});

describe('routes and silences schema', () => {
  it.each([
    [
      'route without notify',
      Routes,
      [{ match: { severity: ['critical'] } }],
      '0.notify: Invalid input: expected array, received undefined',
    ],
    [
      'route with unknown severity',
      Routes,
      [{ match: { severity: ['fatal'] }, notify: ['x'] }],
      '0.match.severity.0: Invalid option: expected one of "info"|"warning"|"critical"',
    ],
    [
      'silence of everything',
      Silences,
      [{ ends_at: '2030-01-01T00:00:00Z' }],
      '0: a silence needs at least one of rule, account or labels (a silence of everything is a mistake)',
    ],
    [
      'silence without end',
      Silences,
      [{ rule: 'r' }],
      '0.ends_at: Invalid input: expected string, received undefined',
    ],
  ])('%s', (_name, schema, input, message) => {
    expect(issues(schema.safeParse(input))).toEqual([message]);
  });

  it('reports routes and silences naming notifiers that do not exist', () => {
    const notifiers = Notifiers.parse({ ops: { kind: 'console' } });
    const routes = Routes.parse([{ notify: ['ops', 'opps'] }]);
    const silences = Silences.parse([{ rule: 'r', notifiers: ['pager'], ends_at: '2030-01-01T00:00:00Z' }]);

    const found = unknownNotifierRefs(notifiers, routes, silences);

    expect(found).toEqual([
      { path: ['routes', 0, 'notify', 1], message: 'unknown notifier "opps"; configured notifiers: ops' },
      {
        path: ['silences', 0, 'notifiers', 0],
        message: 'unknown notifier "pager"; configured notifiers: ops',
      },
    ]);
  });
});
