import { describe, expect, it } from 'vitest';
import { HOSTILE_MEMOS, hostileMemoBase64, pickMemoBase64 } from './hostile.js';
import { createRng } from './rng.js';

function memo(name: string): Buffer {
  return Buffer.from(hostileMemoBase64(name), 'base64');
}

describe('hostile memos', () => {
  it.each([
    ['slack-channel', '<!channel>'],
    ['slack-link', '<https://evil.example|click here to claim>'],
    ['slack-user', '<@U123>'],
    ['html-script', '<script>'],
    ['header-injection', '\r\nX-Injected: 1'],
  ])('%s contains %j', (name, needle) => {
    expect(memo(name).toString('utf8')).toContain(needle);
  });

  it('has a 100 KB memo and one that is not valid UTF-8', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });

    expect(memo('long-100kb').length).toBe(102_400);
    expect(() => decoder.decode(memo('invalid-utf8'))).toThrow();
  });

  it('names every memo uniquely and refuses an unknown name with the list', () => {
    const names = HOSTILE_MEMOS.map((m) => m.name);

    expect(new Set(names).size).toBe(names.length);
    expect(() => hostileMemoBase64('nope')).toThrow(
      /unknown hostile memo "nope": expected one of slack-channel/,
    );
  });

  it('picks hostile memos at the requested rate, ordinary ones otherwise', () => {
    const rng = createRng('memos');
    const hostile = new Set(HOSTILE_MEMOS.map((m) => m.bytes.toString('base64')));

    const none = Array.from({ length: 500 }, () => pickMemoBase64(rng, 0)).filter((m) => hostile.has(m));
    const all = Array.from({ length: 500 }, () => pickMemoBase64(rng, 1)).filter((m) => hostile.has(m));

    expect(none).toHaveLength(0);
    expect(all).toHaveLength(500);
  });
});
