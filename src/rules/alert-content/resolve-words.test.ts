// A resolve says what fired (the summary as it was sent) and why it ended, also after a restart, and its
// headlines stay short in every medium.
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine/engine.js';
import { createRuleStateRepo } from '../alert-state/state-repo.js';
import { openStateStore } from '../../state/store.js';
import { failedEvent } from '../../../test/fixtures/rules/events.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import { slackMessage } from '../../notifiers/slack/message.js';
import { emailMessage } from '../../notifiers/email/message.js';
import type { Alert } from '../alert/alert.js';

const RULE = `rules:
  - id: failed-burst
    summary: "{{account.name}}: {{match_count}} failed transactions in {{window_duration}}"
    when: { result: fail }
    window: { duration: 30s, count: 2 }
    throttle: 1h
`;
const ms = (seconds: number) => (1_700_000_000 + seconds) * 1000;

/** The engine as a restarted daemon builds it: from the state written to the store. */
function restarted(engine: Engine): Engine {
  const repo = createRuleStateRepo(openStateStore({ dir: ':memory:' }));
  repo.apply(engine.takeChanges());
  return createEngine(ruleSetFrom(RULE), repo.load());
}

function fireThenResolve(restart: boolean): { fired: Alert; resolved: Alert } {
  let engine = createEngine(ruleSetFrom(RULE));
  const alerts = [0, 5, 6, 7, 8].flatMap((s) => engine.evaluate(failedEvent(s)).alerts);
  const fired = alerts.at(-1);
  if (restart) engine = restarted(engine);
  const [resolved] = engine.tick(ms(37));
  if (!fired || !resolved) throw new Error('expected a firing and a resolve');
  return { fired, resolved };
}

describe.each([false, true])('a window alert that ends (restarted in between: %s)', (restart) => {
  it('resolves with the summary it fired with and why it ended', () => {
    const { fired, resolved } = fireThenResolve(restart);

    expect(fired.summary).toBe('treasury-hot: 2 failed transactions in 30s');
    expect(resolved).toMatchObject({
      status: 'resolved',
      summary: 'treasury-hot: 2 failed transactions in 30s',
      resolution: 'fewer than 2 matches in the last 30s (1)',
      why: fired.why,
    });
  });
});

describe('the resolve in the receivers', () => {
  it('reads as what fired and why it ended, in the Slack header and the email subject', () => {
    const { resolved } = fireThenResolve(false);

    const slack = slackMessage({ kind: 'single', alert: resolved }, 10);
    const mail = emailMessage({ kind: 'single', alert: resolved }, 10, 'x.test');

    expect(slack.blocks[0]).toMatchObject({
      text: {
        text: 'RESOLVED: treasury-hot: 2 failed transactions in 30s — ended: fewer than 2 matches in the last 30s (1)',
      },
    });
    expect(mail.subject).toBe(
      '[RESOLVED] failed-burst: treasury-hot: 2 failed transactions in 30s — ended: fewer than 2 matches in the last 30s (1)',
    );
  });

  it('keeps the headline short whatever the summary and the ending say', () => {
    const { resolved } = fireThenResolve(false);
    const long = { ...resolved, summary: 's'.repeat(1000), resolution: 'r'.repeat(1000) };

    const header = slackMessage({ kind: 'single', alert: long }, 10).blocks[0] as unknown as {
      text: { text: string };
    };
    const subject = emailMessage({ kind: 'single', alert: long }, 10, 'x.test').subject;

    expect(header.text.text).toMatch(/^RESOLVED: s{79}… — ended: r+…$/);
    expect(header.text.text.length).toBeLessThanOrEqual(150);
    expect(subject).toMatch(/^\[RESOLVED\] failed-burst: s{79}… — ended: r+…$/);
    expect(subject.length).toBeLessThanOrEqual(170);
  });
});
