import { describe, expect, it } from 'vitest';
import { compileTemplate, renderLayered, renderTemplate } from './render-template.js';
import { MAX_RENDER_WORK, MAX_VALUE_CHARS, TRUNCATED } from './bounded-writer.js';

const view = {
  memo: '<b>"Tom & Jerry"</b>',
  amount: 5n,
  account: { name: 'treasury', labels: { team: 'ops' } },
  transfers: [
    { account: '0.0.3', amount: 1n },
    { account: '0.0.98', amount: 2n },
  ],
};

describe('templates', () => {
  it.each([
    ['no HTML escaping: notifiers escape for their medium', '{{memo}}', '<b>"Tom & Jerry"</b>'],
    ['bigints render as decimals', '{{amount}} tinybar', '5 tinybar'],
    ['dotted names', '{{account.name}}/{{account.labels.team}}', 'treasury/ops'],
    ['missing names render empty', '[{{nothing}}]', '[]'],
    ['sections over lists', '{{#transfers}}{{account}}:{{amount}} {{/transfers}}', '0.0.3:1 0.0.98:2 '],
  ])('%s', (_label, template, expected) => {
    const rendered = renderTemplate(template, view);
    const compiled = compileTemplate(template)(view);

    expect([rendered, compiled]).toEqual([expected, expected]);
  });

  it('looks names up layer by layer without copying', () => {
    const rendered = renderLayered('{{status}} {{account.name}} {{memo}}', [
      { status: 'firing', memo: 'first' },
      view,
    ]);

    expect(rendered).toBe('firing treasury first');
  });
});

describe('templates over hostile records: bounded work and output', () => {
  const many = Array.from({ length: 1000 }, (_, i) => ({ account: `0.0.${i}`, amount: BigInt(i) }));
  const nested = `{{#transfers}}{{#transfers}}{{#transfers}}{{account}}{{/transfers}}{{/transfers}}{{/transfers}}`;

  it('stops a section nested in itself over a long list (10⁹ passes unbounded) and says so', () => {
    const rendered = renderTemplate(nested, { transfers: many });

    expect(rendered.endsWith(TRUNCATED)).toBe(true);
    expect(rendered.length).toBeLessThanOrEqual(MAX_RENDER_WORK + TRUNCATED.length);
  });

  it.each([
    ['{{memo}}', 'plain names'],
    ['{{{memo}}}', 'triple mustache'],
    ['{{&memo}}', 'ampersand'],
    ['{{#memo}}{{.}}{{/memo}}', 'section over a string'],
  ])('cuts a long value at MAX_VALUE_CHARS: %s (%s)', (template) => {
    const memo = 'm'.repeat(MAX_VALUE_CHARS * 10);

    const outputs = [renderTemplate(template, { memo }), compileTemplate(template)({ memo })];

    for (const out of outputs)
      expect(out).toBe(`${'m'.repeat(MAX_VALUE_CHARS)}… (${MAX_VALUE_CHARS * 9} more characters)`);
  });

  it('renders no partials, whatever the view holds', () => {
    const rendered = renderTemplate('[{{> memo}}]', { memo: '{{#a}}{{/a}}' });

    expect(rendered).toBe('[]');
  });

  it('does not render values as templates', () => {
    const rendered = renderTemplate('{{memo}}', { memo: '{{#x}}{{x}}{{/x}}', x: [1, 2] });

    expect(rendered).toBe('{{#x}}{{x}}{{/x}}');
  });

  it('renders a list under the budget in full', () => {
    const rendered = renderTemplate('{{#transfers}}{{account}} {{/transfers}}', {
      transfers: many.slice(0, 3),
    });

    expect(rendered).toBe('0.0.0 0.0.1 0.0.2 ');
  });
});
