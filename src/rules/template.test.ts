import { describe, expect, it } from 'vitest';
import { compileTemplate, renderLayered, renderTemplate } from './template.js';

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
