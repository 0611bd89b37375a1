// Alerts in a rule test's diff, as one-line YAML flow mappings in the test file's own form, so a line can be pasted
// under `expect:`. Summaries carry ledger-controlled text (memos): control, bidi and line-breaking characters are
// escaped, never printed raw to the terminal.
import { timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';
import type { Expect } from './schema.js';
import { formatAfter } from './test-time.js';
import type { WrittenTime } from './test-values.js';
import type { Observed } from './types.js';

const UNSAFE =
  // eslint-disable-next-line no-control-regex -- these are exactly the characters to escape
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ue000-\uf8ff]/g;
const PLAIN = /^[+A-Za-z0-9][\w.:+/-]*$/;
const NOT_A_STRING =
  /^([-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?|0x[\da-fA-F]+|0o[0-7]+|true|false|null|~|yes|no|on|off)$/i;

export function formatExpected(e: Expect): string {
  return flow([
    ['at', e.at?.text],
    ['rule', e.rule],
    ['account', e.account],
    ['state', e.state],
    ['summary', e.summary],
  ]);
}

/** `like`: the expectation it is shown beside, whose time form (absolute or +span) and account form it takes. */
export function formatObserved(o: Observed, start: bigint, like?: Expect): string {
  const account = like?.account === o.accountName ? o.accountName : o.accountId;
  return flow([
    ['at', timeText(o.atNs, start, like?.at)],
    ['rule', o.rule],
    ['account', account],
    ['state', o.state],
    ['summary', o.summary],
  ]);
}

function timeText(ns: bigint, start: bigint, like: WrittenTime | undefined): string {
  if (like?.kind === 'at' || ns < start) return isoText(ns);
  return formatAfter(ns - start);
}

/** ISO 8601 with as many fraction digits as needed (none for whole seconds). */
export function isoText(ns: bigint): string {
  const full = timestampToIso(ns);
  return full.replace(/\.?0+Z$/, 'Z');
}

function flow(fields: readonly (readonly [string, string | undefined])[]): string {
  const parts = fields.flatMap(([key, value]) =>
    value === undefined ? [] : [`${key}: ${yamlString(value)}`],
  );
  return `{ ${parts.join(', ')} }`;
}

/** A plain scalar where YAML reads it back as the same string, else quoted (double quotes to escape). */
export function yamlString(text: string): string {
  if (PLAIN.test(text) && !NOT_A_STRING.test(text)) return text;
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(text)) return `'${text.replaceAll("'", "''")}'`;
  const escaped = JSON.stringify(text).replace(
    UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped;
}
