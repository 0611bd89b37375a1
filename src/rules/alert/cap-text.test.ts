import { describe, expect, it } from 'vitest';
import { ALERT_TEXT_MAX } from './cap-text.js';
import { createEngine } from '../engine/engine.js';
import { WATCHED, tx } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';

describe('alert text cap', () => {
  it('keeps at most ALERT_TEXT_MAX characters of a 1 MB memo in the alert, and says how many more', () => {
    const engine = createEngine(
      ruleSetFrom(
        `rules:\n  - id: m\n    summary: "{{memo}}"\n    description: "Memo: {{memo}}"\n    when: { memo: { contains: "A" } }\n`,
      ),
    );
    const memo = 'A'.repeat(1_000_000);
    const record = tx({ memo_base64: Buffer.from(memo).toString('base64') });

    const [alert] = engine.evaluate({ source: 'transactions', record, account: WATCHED }).alerts;

    const note = `… (${1_000_000 - ALERT_TEXT_MAX} more characters)`;
    expect(alert?.summary).toBe(`${'A'.repeat(ALERT_TEXT_MAX)}${note}`);
    expect(alert?.records[0]?.memo).toBe(`${'A'.repeat(ALERT_TEXT_MAX)}${note}`);
    expect(alert?.description).toBe(
      `Memo: ${'A'.repeat(ALERT_TEXT_MAX - 6)}… (${1_000_000 - ALERT_TEXT_MAX + 6} more characters)`,
    );
  });
});
