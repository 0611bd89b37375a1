import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectSecrets, isSecret } from '../config/secret.js';
import { secretUrl } from './secret-url.js';

const EXAMPLE = 'https://hooks.example.com/T…';
/** The message for a value that is `got`; it never shows the value. */
const refused = (got: string) =>
  `expected an http(s) URL like "${EXAMPLE}", got ${got}; the value is not shown because it is a secret`;
const NOT_A_URL = refused('text that is not a URL');
const NOT_HTTP = refused('a URL that is not http(s)');
const USERINFO = refused('a URL with credentials (user:password@), which are never sent');

function messages(value: unknown): string[] {
  const result = secretUrl(EXAMPLE).safeParse(value);
  return (result.error?.issues ?? []).map((issue) => issue.message);
}

describe('secretUrl', () => {
  it.each([
    'https://hooks.slack.com/services/T0001/B0001/XXXXsecret',
    'http://127.0.0.1:8080/hook?token=t0k3n',
    'http://alertmanager:9093/',
  ])('accepts %s unchanged', (url) => {
    const result = secretUrl(EXAMPLE).safeParse(url);

    expect(result.data).toBe(url);
  });

  it.each([
    ['no scheme', 'hooks.slack.com/services/T0001/B0001/tok3n', [NOT_A_URL]],
    ['a bare token', 'T0001/B0001/tok3n', [NOT_A_URL]],
    ['text with spaces', 'see the tok3n wiki', [NOT_A_URL]],
    ['another scheme', 'ftp://tok3n@hooks.example.com/x', [NOT_HTTP]],
    ['a scheme-like token', 'T0001:tok3n', [NOT_HTTP]],
    ['credentials in it', 'https://ops:tok3n@alertmanager.example.com', [USERINFO]],
    ['empty', '', ['must not be empty']],
  ])('refuses %s without showing it', (_name, value, expected) => {
    const found = messages(value);

    expect(found).toEqual(expected);
    found.forEach((message) => expect(message).not.toContain('tok3n'));
  });

  it('is a secret to the loader and to collectSecrets', () => {
    const schema = z.strictObject({ url: secretUrl(EXAMPLE), other: z.string() });

    const secrets = collectSecrets(schema, { url: 'https://x.example.com/tok3n', other: 'plain' });

    expect(isSecret(schema.shape.url)).toBe(true);
    expect(secrets).toEqual(['https://x.example.com/tok3n']);
  });
});
