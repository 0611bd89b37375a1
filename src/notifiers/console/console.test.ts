import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createPacers } from '../../delivery/pacer.js';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { testClock } from '../../../test/helpers/clock.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { consoleNotifier } from './console.js';
import { consoleLines } from './message.js';

describe('consoleLines', () => {
  it('prints one readable line per alert', () => {
    const lines = consoleLines({ kind: 'single', alert: testAlert() }, 10);

    expect(lines).toEqual([
      '[CRITICAL] Large debit on treasury-hot',
      '  firing large-debit treasury-hot (0.0.1234) amount=-1.5 HBAR (-150000000 tinybars) type=CRYPTOTRANSFER result=INSUFFICIENT_ACCOUNT_BALANCE consensus time=2023-11-14 22:13:20.123456789 UTC transaction=0.0.1234-1700000000-000000001 memo="payroll"',
    ]);
  });

  it('makes control characters in ledger text visible', () => {
    const alert = testAlert({ summary: 'x\u001b[2Jy', records: [testRecord({ memo: 'a\nFAKE LINE' })] });

    const lines = consoleLines({ kind: 'single', alert }, 10);

    expect(lines[0]).toBe('[CRITICAL] x\\u{1B}[2Jy');
    expect(lines[1]).toContain('memo="a\\\\u{A}FAKE LINE"');
    expect(lines).toHaveLength(2);
  });

  it('lists the first N of a digest', () => {
    const lines = consoleLines({ kind: 'digest', ruleId: 'large-debit', alerts: testAlerts(5) }, 2);

    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('  and 3 more');
  });
});

describe('console notifier', () => {
  it('writes to the given stream', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    const clock = testClock();
    const notifier = consoleNotifier.create('console', consoleNotifier.config.parse({ kind: 'console' }), {
      now: clock.now,
      sleep: clock.sleep,
      pacers: createPacers(clock),
      logger: captureLogs().logger,
      stdout: stream,
    });

    await notifier.send({ kind: 'single', alert: testAlert() }, new AbortController().signal);

    expect(chunks.join('')).toMatch(/^\[CRITICAL\] Large debit on treasury-hot\n {2}firing large-debit/);
  });
});
