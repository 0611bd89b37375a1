import { describe, expect, it } from 'vitest';
import { encodeSubject } from './subject.js';

function decode(header: string): string {
  const words = header.split('\r\n ').map((w) => /^=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=$/.exec(w)?.[1]);
  return Buffer.concat(words.map((b) => Buffer.from(b ?? 'invalid!', 'base64'))).toString('utf8');
}

describe('encodeSubject', () => {
  it.each([
    ['ASCII', '[CRITICAL] large-debit: treasury-hot'],
    ['an encoded-word look-alike', '=?utf-8?B?SGk=?='],
    ['empty', ''],
    ['multi-byte characters across word boundaries', `${'é'.repeat(50)}${'🚀'.repeat(30)}日本語`],
  ])('%s: words of at most 75 characters that decode to the text', (_name, subject) => {
    const header = encodeSubject(subject);

    expect(header.split('\r\n ').every((w) => w.length <= 75)).toBe(true);
    expect(decode(header)).toBe(subject);
  });
});
