// The page's tools: the script-free reload and its pause, the silence/ack forms (only with a session), the charts.
import { describe, expect, it } from 'vitest';
import { SAMPLE_NOW, sampleStatusInputs } from '../../test/helpers/sample-inputs.js';
import { renderStatusPage } from './render-status.js';
import { buildStatusModel, type StatusInputs } from './status-model.js';
import { alertFingerprint } from '../delivery/alert-view.js';

const render = (extra: Partial<StatusInputs> = {}) =>
  renderStatusPage(buildStatusModel({ ...sampleStatusInputs(), ...extra }));
const id = alertFingerprint('rule-0/payroll');

describe('status page tools', () => {
  it('reloads itself by a meta refresh that keeps the filters, with a link to pause', () => {
    const html = render({ refreshSeconds: 30, filter: { severity: 'critical' } });
    expect(html).toContain('<meta http-equiv="refresh" content="30; url=?severity=critical" />');
    expect(html).toMatch(/<a href="\?severity=critical&amp;refresh=off" id="refresh-toggle">pause<\/a>/);
    expect(render({ refreshSeconds: 0 })).not.toContain('http-equiv="refresh"');
  });

  it('does not reload while a silence form is open, and shows the form only to a logged-in viewer', () => {
    const selected = { id, action: 'silence' as const };
    const anonymous = render({ refreshSeconds: 30, selected, viewer: { writable: true } });
    expect(anonymous).not.toContain('http-equiv="refresh"');
    expect(anonymous).not.toContain('<form method="post" action="/actions/silence"');
    expect(anonymous).toContain('<a href="/login">Log in with the API token</a>');
    const unknown = render({ refreshSeconds: 30, selected: { id: 'nope', action: 'silence' } });
    expect(unknown).toContain('http-equiv="refresh"');
    expect(unknown).not.toContain('id="action"');
    const disabled = render({ selected, viewer: { writable: false } });
    expect(disabled).toContain('set <code>http.api_token_file</code>');

    const html = render({ selected, viewer: { writable: true, csrf: 'c"s<rf' } });
    expect(html).toContain('<form method="post" action="/actions/silence" id="silence-form">');
    expect(html).toContain('<input type="hidden" name="csrf" value="c&quot;s&lt;rf" />');
    expect(html).toMatch(
      /<textarea name="matchers" rows="3" required>rule=&quot;rule-0&quot;\naccount=&quot;0\.0\.1000&quot;<\/textarea>/,
    );
  });

  it('opens the ack form with the alert id, and says what the last form did', () => {
    const html = render({
      selected: { id, action: 'ack' },
      viewer: { writable: true, csrf: 'x' },
      done: 'silenced',
    });
    expect(html).toContain(`<input type="hidden" name="id" value="${id}" />`);
    expect(html).toContain('Silence created');
  });

  it('draws the alerts per hour and the sampled figures as inline SVG, and says when there is nothing yet', () => {
    const hour = Math.floor(SAMPLE_NOW / 3_600_000) * 3_600_000;
    const html = render({
      alertsPerHour: [{ hour, critical: 3, warning: 1, info: 0 }],
      samples: [
        { at: SAMPLE_NOW - 60_000, lagSeconds: 2, staleMax: 5, staleP99: 3, outbox: 4 },
        { at: SAMPLE_NOW, lagSeconds: 1, staleMax: 4, staleP99: 2, outbox: 0 },
      ],
    });
    expect(html).toContain('max 4/h · 4 in 24 h');
    expect(html.match(/<rect\s+class="critical"/g)).toHaveLength(1);
    expect(html.match(/<polyline\s+class="s\d"\s+points="[\d., ]+"/g)).toHaveLength(4);
    const empty = render();
    expect(empty).toContain('no alert fired in the last 24 h');
    expect(empty).toContain('collecting: the first samples appear within a minute');
  });
});
