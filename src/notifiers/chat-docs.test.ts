// docs/notifiers.md shows what the Teams, Discord and Telegram notifiers send for the example alerts (generated
// by the real engine and rules: test/helpers/example-alerts.ts); this fails when the samples stop matching the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleAlerts } from '../../test/helpers/example-alerts.js';
import { discordMessage } from './discord/message.js';
import { teamsMessage } from './teams/message.js';
import { telegramMessage } from './telegram/message.js';

const docs = readFileSync(new URL('../../docs/notifiers.md', import.meta.url), 'utf8');
const { firing, resolved } = exampleAlerts();
const target = { chatId: '-1001234567890', maxListed: 10, silentInfo: false };

describe('docs/notifiers.md samples', () => {
  it('shows the Teams card sent for a firing alert', () => {
    expect(docs).toContain(JSON.stringify(teamsMessage({ kind: 'single', alert: firing }, 10), null, 2));
  });

  it.each([firing, resolved])('shows the Discord payload sent for %#', (alert) => {
    expect(docs).toContain(JSON.stringify(discordMessage({ kind: 'single', alert }, 10), null, 2));
  });

  it.each([firing, resolved])('shows the Telegram text sent for %#', (alert) => {
    expect(docs).toContain(telegramMessage({ kind: 'single', alert }, target).text);
  });
});
