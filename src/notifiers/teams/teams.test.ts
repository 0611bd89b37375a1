import { afterEach, describe, expect, it } from 'vitest';
import { startTeamsSink, TEAMS, type TeamsSink } from '../../../test/helpers/teams-sink.js';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { testNotifierDeps } from '../../../test/helpers/notifier-deps.js';
import { escapeTeams } from './escape.js';
import { TEAMS_CARD_MAX_BYTES, teamsMessage } from './message.js';
import { teams } from './teams.js';

let sink: TeamsSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const signal = () => new AbortController().signal;

async function notifier() {
  sink = await startTeamsSink();
  const config = teams.config.parse({ kind: 'teams', webhook_url: sink.webhookUrl });
  return teams.create('ops-teams', config, testNotifierDeps());
}

describe('teams escaping', () => {
  it.each([
    ['[click](https://evil.example)', '\\[click\\](https://evil.example)'],
    [
      '**urgent** _now_ `x` <at>boss</at>',
      '\\*\\*urgent\\*\\* \\_now\\_ \\`x\\` \\<at\\>boss\\<at\\>'.replace(
        '\\<at\\>boss\\<at\\>',
        '\\<at\\>boss\\</at\\>',
      ),
    ],
    ['- one\n2. two\n# three', '\\- one\n2\\. two\n\\# three'],
    ['0.0.1234 on 2025-11-13', '0.0.1234 on 2025-11-13'],
  ])('%j', (text, expected) => {
    expect(escapeTeams(text)).toBe(expected);
  });
});

describe('teams message', () => {
  it('is an Adaptive Card 1.4 message; firing and resolved differ in words and colour', () => {
    const firing = teamsMessage({ kind: 'single', alert: testAlert() }, 10);
    const resolved = teamsMessage({ kind: 'single', alert: testAlert({ status: 'resolved' }) }, 10);

    const card = firing.attachments[0].content;
    expect(firing.type).toBe('message');
    expect(firing.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.version).toBe('1.4');
    expect(card.body[0]).toMatchObject({ type: 'Container', style: 'attention' });
    expect(JSON.stringify(card.body[0])).toContain(
      'CRITICAL: Large debit on treasury\\\\-hot'.replace('\\\\-', '-'),
    );
    expect(resolved.attachments[0].content.body[0]).toMatchObject({ style: 'good' });
    expect(JSON.stringify(resolved.attachments[0].content.body[0])).toContain('RESOLVED: ');
    expect(card.actions).toEqual([
      {
        type: 'Action.OpenUrl',
        title: 'Open in explorer',
        url: 'https://hashscan.io/mainnet/transaction/1700000000.123456789',
      },
    ]);
  });

  it('keeps a big digest under the size limit and counts the rest', () => {
    const alerts = testAlerts(40, { description: 'D'.repeat(2000) });

    const payload = teamsMessage({ kind: 'digest', ruleId: 'large-debit', alerts }, 40);

    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThan(TEAMS_CARD_MAX_BYTES);
    expect(JSON.stringify(payload)).toMatch(/_and \d+ more_/);
  });
});

describe('teams notifier against a Workflows-like trigger', () => {
  it('posts a card the trigger accepts; a hostile memo links nothing', async () => {
    const n = await notifier();
    const memo = '[claim](https://evil.example) **now** ' + 'M'.repeat(1_000_000);

    await n.send({ kind: 'single', alert: testAlert({ records: [testRecord({ memo })] }) }, signal());

    const [card] = sink!.cards();
    const texts = JSON.stringify(card);
    expect(texts).toContain('\\\\[claim\\\\](https://evil.example) \\\\*\\\\*now\\\\*\\\\*');
    expect(sink!.requests[0]?.body.length).toBeLessThan(10_000);
  });

  it.each([
    [TEAMS.throttled(9), { retryable: true, retryAfterMs: 9000, reason: 'http_429' }],
    [TEAMS.schemaMismatch, { retryable: false, reason: 'http_400' }],
    [TEAMS.unauthorized, { retryable: false, reason: 'http_401' }],
    [TEAMS.notFound, { retryable: false, reason: 'http_404' }],
    [{ status: 502 }, { retryable: true, reason: 'http_502' }],
  ])('classifies %j', async (answer, expected) => {
    const n = await notifier();
    sink!.script(answer);

    const error = await n.send({ kind: 'single', alert: testAlert() }, signal()).catch((e: unknown) => e);

    expect(error).toMatchObject(expected);
  });

  it("names the workflow's error code, never the URL", async () => {
    const n = await notifier();
    sink!.script(TEAMS.notFound);

    const error = (await n
      .send({ kind: 'single', alert: testAlert() }, signal())
      .catch((e: unknown) => e)) as Error;

    expect(error.message).toBe(
      'Teams workflow of notifier "ops-teams" answered HTTP 404: no such receiver: the webhook was removed or the URL is wrong (permanent; check the notifier URL) (Teams said: WorkflowTriggerNotFound)',
    );
  });
});
