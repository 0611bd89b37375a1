import { describe, expect, it } from 'vitest';
import { testAlert, testAlerts, testRecord } from '../../../test/helpers/alerts.js';
import { escapeHtml } from './html.js';
import { emailMessage } from './message.js';

describe('emailMessage', () => {
  it('puts severity and rule in the subject and strips header-breaking characters', () => {
    const alert = testAlert({ summary: 'Debit\r\nBcc: victim@example.com' });

    const parts = emailMessage({ kind: 'single', alert }, 10, 'sentinel.test');

    expect(parts.subject).toBe('[CRITICAL] large-debit: Debit\\u{D}\\u{A}Bcc: victim@example.com');
  });

  it('gives the same notification the same Message-ID and a different one a different ID', () => {
    const alert = testAlert();

    const first = emailMessage({ kind: 'single', alert }, 10, 'sentinel.test');
    const again = emailMessage({ kind: 'single', alert: { ...alert } }, 10, 'sentinel.test');
    const other = emailMessage({ kind: 'single', alert: { ...alert, id: 'other' } }, 10, 'sentinel.test');

    expect(first.messageId).toMatch(/^<[0-9a-f]{32}@sentinel\.test>$/);
    expect(again.messageId).toBe(first.messageId);
    expect(other.messageId).not.toBe(first.messageId);
    expect(other.references).toBe(first.references);
  });

  it('escapes ledger text in the HTML part and keeps it verbatim in the text part', () => {
    const alert = testAlert({ records: [testRecord({ memo: '<script>alert("x")</script> & co' })] });

    const parts = emailMessage({ kind: 'single', alert }, 10, 'sentinel.test');

    expect(parts.html).toContain('Memo: &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; co');
    expect(parts.html).not.toContain('<script>');
    expect(parts.text).toContain('Memo: <script>alert("x")</script> & co');
  });

  it('lists the first N of a digest and says how many more', () => {
    const parts = emailMessage(
      { kind: 'digest', ruleId: 'large-debit', alerts: testAlerts(12) },
      5,
      'sentinel.test',
    );

    expect(parts.subject).toContain('12 alerts of rule large-debit');
    expect(parts.text.match(/^FIRING /gm)).toHaveLength(5);
    expect(parts.text).toContain('and 7 more');
  });

  it.each([
    ['<b>', '&#60;b&#62;'],
    ['"\'', '&#34;&#39;'],
    ['a&b', 'a&#38;b'],
  ])('escapeHtml(%j) → %j', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });
});
