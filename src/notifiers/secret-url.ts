// Secret URLs (Slack webhooks, webhook receivers, Alertmanager): the URL often carries a token, so it is a
// `secret()` with a `*_file` twin, and it is checked when the config is loaded (file:line:col) with a message that
// never shows the value.
import type { z } from 'zod';
import { secret, secretRegistry } from '../config/secret.js';

/** A `secret()` that must be an absolute http(s) URL; `example` shows the expected shape in the message. */
export function secretUrl(example: string): z.ZodString {
  const schema = secret().superRefine((text, ctx) => {
    const got = urlProblem(text);
    if (got)
      ctx.addIssue({
        code: 'custom',
        message: `expected an http(s) URL like "${example}", got ${got}; the value is not shown because it is a secret`,
      });
  });
  // A check returns a new schema: mark it too, so the loader and collectSecrets still see a secret.
  return schema.register(secretRegistry, { secret: true });
}

/** What is wrong with the URL, in words that reveal nothing of it. */
function urlProblem(text: string): string | undefined {
  if (text === '') return undefined; // secret() already says "must not be empty"
  if (!URL.canParse(text)) return 'text that is not a URL';
  const { protocol, username, password } = new URL(text);
  if (protocol !== 'http:' && protocol !== 'https:') return 'a URL that is not http(s)';
  // fetch refuses such URLs and undici drops the credentials: either way they would never authenticate.
  if (username || password) return 'a URL with credentials (user:password@), which are never sent';
  return undefined;
}
