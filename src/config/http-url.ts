import { z } from 'zod';
import { describeValue, quote } from './describe-value.js';

import { ENV_REFERENCE } from './duration.js';

/** An absolute http(s) URL, returned without a trailing slash so paths can be appended. */
export function httpUrl(example: string): z.ZodPipe<z.ZodString, z.ZodTransform<string, string>> {
  const wanted = `expected an http(s) URL like "${example}"`;
  return (
    z
      .string({
        error: (issue) =>
          issue.input === undefined ? undefined : `${wanted}, got ${describeValue(issue.input)}`,
      })
      // For JSON Schema users (editors, the Helm chart), who see the text before ${VAR} is expanded; isHttpUrl
      // below is what the daemon runs.
      .meta({ pattern: `^(?:[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]|${ENV_REFERENCE})` })
      .transform((text, ctx) => {
        if (!isHttpUrl(text)) {
          ctx.issues.push({ code: 'custom', input: text, message: `${wanted}, got ${quote(text)}` });
          return z.NEVER;
        }
        return text.replace(/\/+$/, '');
      })
  );
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}
