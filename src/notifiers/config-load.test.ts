// The notifier sections through the real config loader: `*_file` twins for secrets, positions in errors, and
// the secrets the logger must scrub.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../config/config-error.js';
import { loadYaml } from '../config/load-yaml.js';
import { collectSecrets } from '../config/secret.js';
import { notifierSecrets } from './channels.js';
import { Notifiers, Routes, Silences } from './schema.js';

const schema = z.strictObject({ notifiers: Notifiers, routes: Routes, silences: Silences });
const readFile = (path: string) => `secret-from:${path}`;

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
    expect(value?.notifiers.ops).toMatchObject({ webhook_url: 'secret-from:/secrets/slack' });
    expect(value && notifierSecrets(value.notifiers).sort()).toEqual([
      'secret-from:/secrets/slack',
      'secret-from:/secrets/smtp',
    ]);
    expect(value && collectSecrets(schema, value).sort()).toEqual([
      'secret-from:/secrets/slack',
      'secret-from:/secrets/smtp',
    ]);
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
