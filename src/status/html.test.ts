import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml } from './html.js';

describe('html', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['" onmouseover="x', '&quot; onmouseover=&quot;x'],
    ["' autofocus '", '&#39; autofocus &#39;'],
    ['&lt;', '&amp;lt;'],
    ['plain text', 'plain text'],
  ])('escapes %j', (text, expected) => {
    expect(escapeHtml(text)).toBe(expected);
    expect(html`<td title="${text}">${text}</td>`.toString()).toBe(
      `<td title="${expected}">${expected}</td>`,
    );
  });

  it('keeps the markup of nested html and joins arrays of it, escaping what they hold', () => {
    const items = ['<b>', 'ok'].map((t) => html`<li>${t}</li>`);

    const list = html`<ul>
      ${items}
    </ul>`;

    expect(list.toString().replace(/\s+/g, '')).toBe('<ul><li>&lt;b&gt;</li><li>ok</li></ul>');
  });

  it('prints nothing for undefined, null and false, and numbers as text', () => {
    expect(html`${undefined}${null}${false}${0}${12.5}`.toString()).toBe('012.5');
  });

  it('escapes an object that only looks like safe markup (e.g. parsed from a stored alert)', () => {
    const forged = JSON.parse('{"toString":"<script>"}') as unknown;
    const fake = Object.create(SafeHtml.prototype) as SafeHtml;

    expect(html`${forged}`.toString()).toBe('[unprintable]');
    expect(html`${fake}`.toString()).toBe('[unprintable]');
  });

  it('cannot be built from a string outside the tag', () => {
    expect(() => new SafeHtml('<script>', Symbol('safe-html') as never)).toThrow(/html tag only/);
  });
});
