import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../config-file/load.js';
import { loadRules } from '../rules/load/load-rules.js';
import { decodeUtf8, firstInvalidUtf8, type InvalidUtf8Error } from './read-utf8.js';

const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('strict UTF-8', () => {
  it.each([
    ['Latin-1 é', bytes('ab', [0xe9], 'c'), 2],
    ['a lone continuation byte', bytes('é', [0x80]), 2],
    ['an overlong /', bytes('x', [0xc0, 0xaf]), 1],
    ['a UTF-16 surrogate', bytes('ok ', [0xed, 0xa0, 0x80]), 3],
    ['a sequence cut at the end', bytes('€', [0xe2, 0x82]), 3],
    ['above U+10FFFF', bytes([0xf4, 0x90, 0x80, 0x80]), 0],
  ])('finds %s at its byte offset', (_name, input, offset) => {
    expect(firstInvalidUtf8(input)).toBe(offset);
    expect(() => decodeUtf8('f.yaml', input)).toThrow(`invalid UTF-8 at byte offset ${offset}`);
  });

  it('decodes valid text of every sequence length', () => {
    const text = 'a é € 𝄞';

    expect([firstInvalidUtf8(Buffer.from(text)), decodeUtf8('f', Buffer.from(text))]).toEqual([-1, text]);
  });

  it('says the line and column of the bad byte and the fix', () => {
    const error = (() => {
      try {
        return decodeUtf8('f.yaml', bytes('a: 1\nname: caf', [0xe9], '\n'));
      } catch (err) {
        return err;
      }
    })() as InvalidUtf8Error;

    expect([error.line, error.col, error.byteOffset]).toEqual([2, 10, 14]);
    expect(error.message).toBe(
      'f.yaml:2:10: invalid UTF-8 at byte offset 14 (byte 0xE9): the file is in another encoding (Latin-1, Windows-1252?); save the file as UTF-8',
    );
  });

  it('refuses a config file that is not UTF-8, naming the file, the position and the fix', () => {
    const path = join(dir, 'config.yaml');
    writeFileSync(
      path,
      bytes('ledger: { base_url: "http://127.0.0.1:1" }\naccounts: [{ id: 0.0.1, name: caf', [0xe9], ' }]\n'),
    );

    const result = loadConfigFile(path, { env: {} });

    expect(result.ok ? [] : result.issues).toEqual([
      expect.objectContaining({
        file: path,
        line: 2,
        col: 34,
        message: expect.stringMatching(/byte offset 76 .*save the file as UTF-8/),
      }),
    ]);
  });

  it('refuses a rule file that is not UTF-8 and still reports the other files', () => {
    const bad = join(dir, 'bad.yaml');
    const good = join(dir, 'good.yaml');
    writeFileSync(bad, bytes('rules:\n  - id: x\n    summary: "Gr', [0xfc], 'n"\n'));
    writeFileSync(good, 'rules:\n  - id: y\n    summary: ok\n    when: { bogus: 1 }\n');

    const result = loadRules({ paths: [bad, good], env: {}, knownNotifiers: 'any', accounts: [] });
    const issues = result.ok ? [] : result.issues.map((i) => `${i.file}:${i.line}:${i.col}: ${i.message}`);

    expect(issues).toEqual([
      expect.stringMatching(
        new RegExp(`^${bad}:3:17: invalid UTF-8 at byte offset 33 .*save the file as UTF-8$`),
      ),
      expect.stringContaining(`${good}:4:`),
    ]);
  });
});

describe('__proto__ as a key', () => {
  it('is refused at its position in any config or rule mapping, not dropped', () => {
    const text = 'rules:\n  - id: y\n    summary: ok\n    labels: { team: a, __proto__: b }\n';

    const result = loadRules({
      files: [{ file: 'r.yaml', text }],
      env: {},
      knownNotifiers: 'any',
      accounts: [],
    });

    expect(result.ok ? [] : result.issues.map((i) => [i.line, i.col, i.message])).toEqual([
      [4, 24, expect.stringMatching(/"__proto__" cannot be a key/)],
    ]);
  });
});
