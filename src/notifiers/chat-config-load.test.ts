// The chat receivers' config errors through the real loader: each one's exact message, at its line and column,
// never showing a secret (a bot token read from its *_file included).
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../config/config-error.js';
import { loadYaml } from '../config/load-yaml.js';
import { Notifiers } from './schema.js';

const schema = z.strictObject({ notifiers: Notifiers });
const FILES: Readonly<Record<string, string>> = {
  '/secrets/telegram': '123456789:AAH-from-file',
  '/secrets/telegram-bad': 'not a token SECRET-VALUE',
  '/secrets/slack-bad': 'xoxq-SECRET-VALUE',
};
const readFile = (path: string) => {
  const content = FILES[path];
  if (content === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return content;
};

function load(text: string) {
  const result = loadYaml({ file: 'config.yaml', text, schema, env: {}, readFile });
  return result.ok ? [] : result.issues.map(formatIssue);
}

describe('chat receiver config through the loader', () => {
  it('reads a bot token from its file', () => {
    const text = `notifiers:\n  tg: { kind: telegram, bot_token_file: /secrets/telegram, chat_id: -1001234567890 }\n`;

    expect(load(text)).toEqual([]);
  });

  it.each([
    [
      'a Telegram token of the wrong shape, from its file',
      `notifiers:\n  tg:\n    kind: telegram\n    bot_token_file: /secrets/telegram-bad\n    chat_id: 1\n`,
      'config.yaml:4:21 notifiers.tg.bot_token_file: expected a bot token like "123456789:AAH…" (digits, a colon, then letters, digits, - and _) as @BotFather gives it; the value is not shown because it is a secret',
    ],
    [
      'a Telegram chat id that is a name',
      `notifiers:\n  tg:\n    kind: telegram\n    bot_token_file: /secrets/telegram\n    chat_id: treasury\n`,
      'config.yaml:5:14 notifiers.tg.chat_id: expected a numeric chat id like -1001234567890 or a channel username like @treasury_alerts',
    ],
    [
      'a Slack token that is not a bot token',
      `notifiers:\n  app:\n    kind: slack-app\n    bot_token_file: /secrets/slack-bad\n    channel: C0123ABCD\n`,
      'config.yaml:4:21 notifiers.app.bot_token_file: expected a Slack bot token like "xoxb-…" (OAuth & Permissions of the Slack app); the value is not shown because it is a secret',
    ],
    [
      'a Slack channel with a capital letter',
      `notifiers:\n  app:\n    kind: slack-app\n    bot_token: xoxb-1234-abcd-efgh\n    channel: '#Treasury'\n`,
      'config.yaml:5:14 notifiers.app.channel: expected a channel id like "C0123ABCD" or a name like "#treasury-alerts"',
    ],
    [
      'a Discord name Discord refuses',
      `notifiers:\n  dc:\n    kind: discord\n    webhook_url: https://discord.com/api/webhooks/1/t\n    username: Discord alerts\n`,
      'config.yaml:5:15 notifiers.dc.username: Discord refuses webhook names containing "discord" or "clyde"; choose another username',
    ],
    [
      'a Teams URL that is not one',
      `notifiers:\n  tm:\n    kind: teams\n    webhook_url: prod-00.westeurope.logic.azure.com/workflows\n`,
      'config.yaml:4:18 notifiers.tm.webhook_url: expected an http(s) URL like "https://prod-00.westeurope.logic.azure.com:443/workflows/…/triggers/manual/paths/invoke?api-version=2016-06-01&sig=…", got text that is not a URL; the value is not shown because it is a secret',
    ],
  ])('%s', (_name, text, expected) => {
    const messages = load(text);

    expect(messages).toEqual([expected]);
    expect(messages.join('\n')).not.toContain('SECRET-VALUE');
  });
});
