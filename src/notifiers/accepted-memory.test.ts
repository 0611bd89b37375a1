import { describe, expect, it } from 'vitest';
import { createAcceptedMemory } from './accepted-memory.js';
import { testAlerts } from '../../test/helpers/alerts.js';

describe('accepted memory', () => {
  it('remembers up to its bound, forgetting the oldest first', () => {
    const memory = createAcceptedMemory(2);

    memory.add('a');
    memory.add('b');
    memory.add('a'); // refreshed: now the newest
    memory.add('c');

    expect(['a', 'b', 'c'].map((id) => memory.has(id))).toEqual([true, false, true]);
  });

  it('sends each alert once: a retry after a failure halfway starts at the alert that failed', async () => {
    const memory = createAcceptedMemory();
    const alerts = testAlerts(3);
    const sent: string[] = [];
    let failOn: string | undefined = alerts[1]?.id;
    const send = async (alert: { id: string }) => {
      if (alert.id === failOn) throw new Error('503');
      sent.push(alert.id);
      return { status: 202, answer: alert.id };
    };

    const first = memory.sendEach({ kind: 'digest', ruleId: 'large-debit', alerts }, send);
    await expect(first).rejects.toThrow('503');
    failOn = undefined;
    const receipt = await memory.sendEach({ kind: 'digest', ruleId: 'large-debit', alerts }, send);

    expect(sent).toEqual(alerts.map((a) => a.id));
    expect(receipt).toEqual({ status: 202, answer: alerts[2]?.id });
  });
});
