import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderStatusPage } from './render-status.js';
import { buildStatusModel } from './status-model.js';
import { sampleStatusInputs, type SampleOptions } from '../../test/helpers/sample-inputs.js';

const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>';

function page(options: SampleOptions & { streamsPage?: number } = {}): string {
  const inputs = sampleStatusInputs(options);
  return renderStatusPage(buildStatusModel({ ...inputs, streamsPage: options.streamsPage ?? 1 }));
}

/** The tags of a document, in order: what an injection would change. */
function tags(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[0]);
}

describe('status page', () => {
  it('shows every section', () => {
    const html = page();

    for (const id of ['health', 'alerts', 'streams', 'silences', 'rules', 'notifiers'])
      expect(html).toContain(`<section id="${id}">`);
    expect(html).toContain('lag behind consensus: <strong>2.5 s</strong>');
    expect(html).toContain('page 1 of 1');
  });

  it('renders a hostile memo as text: the same tags as a plain one, the memo escaped', () => {
    const hostile = page({ text: HOSTILE });

    expect(tags(hostile)).toEqual(tags(page({ text: 'payroll' })));
    expect(hostile).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(hostile).not.toMatch(/<script|<img/i);
  });

  it('keeps its markup whatever text the ledger puts in memos, names, labels and notifier errors', () => {
    const plain = tags(page({ text: 'payroll' }));

    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (text) => {
        expect(tags(page({ text }))).toEqual(plain);
      }),
      { numRuns: 300 },
    );
  });

  it('links the neighbouring pages of streams and not the current one', () => {
    const html = page({ streams: 10_000, streamsPage: 2 });

    expect(html).toContain('page 2 of 200');
    expect(html).toContain('<a href="?streams_page=1#streams">« first</a>');
    expect(html).toContain('<a href="?streams_page=3#streams">fresher ›</a>');
    expect(html).toContain('<a href="?streams_page=200#streams">last »</a>');
    const section = html.slice(
      html.indexOf('<section id="streams">'),
      html.indexOf('<section id="silences">'),
    );
    expect(section).not.toContain('href="?streams_page=2#');
    expect(section.match(/<tr>\s*<td class="num">/g)).toHaveLength(50);
    expect(section).toMatch(/<td class="num">51<\/td>/);
  });

  it('says when an alert is silenced, on which notifier, and when a notifier is paused or failing', () => {
    const html = page();

    expect(html).toContain('silenced on ops-slack');
    expect(html).toMatch(/paused until 2026-11-25T12:00:30Z/);
    expect(html).toMatch(/<span class="bad">payroll<\/span>/);
  });

  it.each([
    [0.09, 'ok', undefined],
    [0.85, 'warn', 'Close to the request budget: the tail needs 42.5 requests/s and the budget allows 50'],
    [1.5, 'bad', 'Over the request budget: the tail needs 75.0 requests/s and the budget allows 50'],
  ] as const)('shows the tail capacity at ratio %d (%s) and what to do above 0.8', (ratio, tone, warning) => {
    const capacity = { tps: 1800, demandRps: ratio * 50, budgetRps: 50, ratio, strategy: 'global' as const };
    const inputs = { ...sampleStatusInputs(), capacity: { ...capacity, exceeded: ratio > 0.8 } };

    const html = renderStatusPage(buildStatusModel(inputs));

    const at = html.indexOf('<div class="summary" id="capacity">');
    const line = html.slice(at, html.indexOf('<div class="scroll">', at));
    expect(line).toContain(`<strong class="${tone}">ratio ${ratio.toFixed(2)}</strong>`);
    expect(line).toMatch(/demand <strong>\d+\.\d req\/s<\/strong> of a\s+<strong>50 req\/s<\/strong> budget/);
    expect(line).toContain('<strong>1800 TPS</strong>');
    // The strategy stands once, on the line above (tail strategy), not again here.
    expect(line).not.toContain('strategy: <strong>');
    expect(html).toMatch(
      new RegExp(`<div class="card ${tone}">\\s*<div class="value">${ratio.toFixed(2)}</div>`),
    );
    if (warning === undefined) expect(html).not.toContain('id="capacity-warning"');
    else {
      expect(line).toMatch(new RegExp(`<p class="${tone}" id="capacity-warning">\\s*${warning}`));
      expect(line).toContain('ledger.requests_per_second');
      expect(line).toContain('self-hosted');
    }
  });

  it('says when the capacity is not estimated yet', () => {
    const none = renderStatusPage(buildStatusModel(sampleStatusInputs()));

    expect(none).toMatch(/tail capacity: <strong>not estimated yet<\/strong>/);
    expect(none).not.toContain('id="capacity-warning"');
  });

  it('has no script and loads nothing: it works under default-src none', () => {
    const html = page({ streams: 100, rules: 10, firing: 5 });

    expect(html).not.toMatch(/<script|<link|<img|<iframe|\son[a-z]+=|javascript:|src=|url\(/i);
  });
});
