// Memos that attack whatever renders them: Slack mrkdwn control sequences, HTML and script, header injection,
// bidi tricks, a 100 KB blob and bytes that are not UTF-8. The living ledger mixes them into ordinary traffic
// so every notifier meets them (the memo is ledger-controlled text; docs/ledger-api.md §14: memo_base64 is raw bytes).
import type { Rng } from './rng.js';

export interface HostileMemo {
  readonly name: string;
  readonly bytes: Buffer;
}

const LONG_MEMO_BYTES = 100 * 1024;

function text(name: string, value: string): HostileMemo {
  return { name, bytes: Buffer.from(value, 'utf8') };
}

/** Every hostile memo, in a fixed order; tests can pick one by name. */
export const HOSTILE_MEMOS: readonly HostileMemo[] = [
  text('slack-channel', 'pay now <!channel> <!here> <!everyone>'),
  text('slack-link', 'refund: <https://evil.example|click here to claim>'),
  text('slack-user', 'ping <@U123> and <#C123|general> and <!subteam^S123>'),
  text('slack-mrkdwn', '*bold* _italic_ ~strike~ `code` ```block``` > quote'),
  text('html-script', '<script>alert(document.cookie)</script><img src=x onerror=alert(1)>'),
  text('html-entities', '&lt;b&gt; &amp;amp; </td></tr></table><a href="javascript:alert(1)">x</a>'),
  text('header-injection', 'memo\r\nX-Injected: 1\r\n\r\n<html>'),
  text('template', '{{constructor.constructor("return process")()}} ${jndi:ldap://x} {{{raw}}}'),
  text('bidi', 'invoice \u202egpj.exe\u202c \u200b\u200d zero-width'),
  text('emoji-combining', 'e\u0301\u0301\u0301 \u{1f4a9}\u{1f3f4}\u{e0067}\u{e0062}'),
  text('nul', 'before\u0000after'),
  {
    name: 'invalid-utf8',
    bytes: Buffer.from([0x68, 0x69, 0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80]),
  },
  { name: 'long-100kb', bytes: Buffer.alloc(LONG_MEMO_BYTES, '<!channel> ') },
];

const ORDINARY_MEMOS: readonly string[] = [
  '',
  '',
  '',
  'payment',
  'invoice 2024-118',
  'salary',
  'exchange withdrawal',
  'staking',
  'nft sale',
  'topup',
];

/** The wire form of a memo: base64 of its bytes. */
export function memoBase64(bytes: Buffer): string {
  return bytes.toString('base64');
}

const HOSTILE_BASE64 = HOSTILE_MEMOS.map((m) => memoBase64(m.bytes));
const ORDINARY_BASE64 = ORDINARY_MEMOS.map((m) => memoBase64(Buffer.from(m, 'utf8')));

/** A memo for generated traffic: hostile with probability `hostileRate`, else an ordinary one (often empty). */
export function pickMemoBase64(rng: Rng, hostileRate: number): string {
  if (rng.chance(hostileRate)) return rng.pick(HOSTILE_BASE64);
  return rng.pick(ORDINARY_BASE64);
}

export function hostileMemoBase64(name: string): string {
  const memo = HOSTILE_MEMOS.find((m) => m.name === name);
  if (!memo) {
    const names = HOSTILE_MEMOS.map((m) => m.name).join(', ');
    throw new RangeError(`unknown hostile memo "${name}": expected one of ${names}`);
  }
  return memoBase64(memo.bytes);
}
