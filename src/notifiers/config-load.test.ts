// The notifier sections through the real config loader: `*_file` twins for secrets, positions in errors, and
// the secrets the logger must scrub.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../config/config-error.js';
import { loadYaml } from '../config/load-yaml.js';
import { collectSecrets } from '../config/secret.js';
import { notifierSecrets } from '../delivery/channels.js';
import { Notifiers, Routes, Silences } from './schema.js';

const schema = z.strictObject({ notifiers: Notifiers, routes: Routes, silences: Silences });
const FILES: Readonly<Record<string, string>> = {
  '/secrets/slack': 'https://hooks.slack.com/services/T1/B1/from-file',
  '/secrets/smtp': 'smtp-password-from-file',
  '/secrets/bad-url': 'hooks.slack.com/services/T1/B1/tok3n-SECRET',
};
const readFile = (path: string) => {
  const content = FILES[path];
  if (content === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return content;
};

const GOOD = `notifiers:
  ops:
    kind: slack
    webhook_url_file: /secrets/slack
  mail:
    kind: email
    host: smtp.example.com
    from: a@example.com
    to: [b@example.com]
    username: sentinel
    password_file: /secrets/smtp
routes:
  - match: { severity: [critical] }
    notify: [ops]
silences:
  - { account: treasury-hot, ends_at: "2030-01-01T00:00:00Z" }
`;

describe('notifier config through the loader', () => {
  it('reads secrets from *_file twins and reports them for redaction', () => {
    const result = loadYaml({ file: 'config.yaml', text: GOOD, schema, env: {}, readFile });

    expect(result.ok).toBe(true);
    const value = result.ok ? result.value : undefined;
    const secrets = [FILES['/secrets/slack'], FILES['/secrets/smtp']];
    expect(value?.notifiers.ops).toMatchObject({ webhook_url: FILES['/secrets/slack'] });
    expect(value && notifierSecrets(value.notifiers).sort()).toEqual(secrets);
    expect(value && collectSecrets(schema, value).sort()).toEqual(secrets);
  });

  it('points at the line and column of a typo in a notifier, with a did-you-mean', () => {
    const text = `notifiers:\n  hook:\n    kind: webhook\n    url: https://example.com/h\n    signing_kye: k\n`;

    const result = loadYaml({ file: 'config.yaml', text, schema, env: {}, readFile });

    const messages = result.ok ? [] : result.issues.map(formatIssue);
    expect(messages).toEqual([
      'config.yaml:3:5 notifiers.hook.signing_key: missing required key "signing_key"; add it to notifiers.hook',
      'config.yaml:5:5 notifiers.hook.signing_kye: unknown key "signing_kye"; did you mean "signing_key"?',
    ]);
  });
});

const SECRET = 'tok3n-SECRET';
const HIDDEN = '; the value is not shown because it is a secret';
const SLACK_URL = 'expected an http(s) URL like "https://hooks.slack.com/services/T…/B…/…"';
const WEBHOOK_URL = 'expected an http(s) URL like "https://receiver.example.com/hooks/ledger-sentinel"';
const AM_URL = 'expected an http(s) URL like "http://alertmanager:9093"';

// One fixture per mistake in a secret URL: the position, the key as written, and never the value.
const BAD_URLS: [string, string, string][] = [
  [
    'slack webhook_url without a scheme',
    `notifiers:\n  ops:\n    kind: slack\n    webhook_url: hooks.slack.com/services/T1/B1/${SECRET}\n`,
    `config.yaml:4:18 notifiers.ops.webhook_url: ${SLACK_URL}, got text that is not a URL${HIDDEN}`,
  ],
  [
    'slack webhook_url_file holding no URL',
    'notifiers:\n  ops:\n    kind: slack\n    webhook_url_file: /secrets/bad-url\n',
    `config.yaml:4:23 notifiers.ops.webhook_url_file: ${SLACK_URL}, got text that is not a URL${HIDDEN}`,
  ],
  [
    'webhook url with another scheme',
    `notifiers:\n  siem:\n    kind: webhook\n    url: ftp://${SECRET}@siem.example.com/in\n    signing_key: k\n`,
    `config.yaml:4:10 notifiers.siem.url: ${WEBHOOK_URL}, got a URL that is not http(s)${HIDDEN}`,
  ],
  [
    'webhook url_file holding no URL',
    'notifiers:\n  siem:\n    kind: webhook\n    url_file: /secrets/bad-url\n    signing_key: k\n',
    `config.yaml:4:15 notifiers.siem.url_file: ${WEBHOOK_URL}, got text that is not a URL${HIDDEN}`,
  ],
  [
    'webhook url from ${ENV} holding no URL',
    'notifiers:\n  siem:\n    kind: webhook\n    url: ${SIEM_URL}\n    signing_key: k\n',
    `config.yaml:4:10 notifiers.siem.url: ${WEBHOOK_URL}, got text that is not a URL${HIDDEN}`,
  ],
  [
    'alertmanager url without a scheme',
    `notifiers:\n  am:\n    kind: alertmanager\n    url: ${SECRET}@alertmanager:9093\n`,
    `config.yaml:4:10 notifiers.am.url: ${AM_URL}, got text that is not a URL${HIDDEN}`,
  ],
  [
    'alertmanager url_file holding no URL',
    'notifiers:\n  am:\n    kind: alertmanager\n    url_file: /secrets/bad-url\n',
    `config.yaml:4:15 notifiers.am.url_file: ${AM_URL}, got text that is not a URL${HIDDEN}`,
  ],
];

describe('secret URLs through the loader', () => {
  it.each(BAD_URLS)('%s: reported at its position, without the value', (_name, text, expected) => {
    const env = { SIEM_URL: `siem.example.com/in?token=${SECRET}` };

    const result = loadYaml({ file: 'config.yaml', text, schema, env, readFile });

    const messages = result.ok ? [] : result.issues.map(formatIssue);
    expect(messages).toEqual([expected]);
    expect(messages.join('\n')).not.toContain(SECRET);
  });

  it('accepts http(s) URLs inline, from ${ENV} and from *_file', () => {
    const text = [
      'notifiers:',
      '  ops: { kind: slack, webhook_url_file: /secrets/slack }',
      '  siem: { kind: webhook, url: "${SIEM_URL}", signing_key: k }',
      '  am: { kind: alertmanager, url: "http://alertmanager:9093/" }',
      '',
    ].join('\n');
    const env = { SIEM_URL: 'https://siem.example.com/in?token=t' };

    const result = loadYaml({ file: 'config.yaml', text, schema, env, readFile });

    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
    const value = result.ok ? result.value.notifiers : {};
    expect(value).toMatchObject({
      ops: { webhook_url: FILES['/secrets/slack'] },
      siem: { url: 'https://siem.example.com/in?token=t' },
      am: { url: 'http://alertmanager:9093/' },
    });
  });
});
