// Config and rule files are UTF-8. Node's 'utf8' decoding silently turns a bad byte into U+FFFD, so a file saved
// as Latin-1 loads with a label, a name or a regex that never matches what its author typed. Decoded strictly
// instead: the error names the file, the byte offset of the first bad sequence (and its line and column) and the fix.
import { readFileSync } from 'node:fs';

export class InvalidUtf8Error extends Error {
  readonly code = 'EILSEQ';
  constructor(
    readonly file: string,
    /** Of the first byte of the first invalid sequence. */
    readonly byteOffset: number,
    readonly line: number,
    readonly col: number,
    /** Without the file's name: what a ConfigIssue (which names it) says. */
    readonly reason: string,
  ) {
    super(`${file}:${line}:${col}: ${reason}`);
    this.name = 'InvalidUtf8Error';
  }
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** The text of `bytes`; throws InvalidUtf8Error at the first byte that is not UTF-8. */
export function decodeUtf8(file: string, bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    // The decoder and the scan agree on what is valid; if they ever did not, report the start of the file.
    const offset = at < 0 ? 0 : at;
    const before = strict.decode(bytes.subarray(0, offset));
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
    const reason =
      `invalid UTF-8 at byte offset ${offset} (byte 0x${byte}): the file is in another encoding ` +
      '(Latin-1, Windows-1252?); save the file as UTF-8';
    return thrown(new InvalidUtf8Error(file, offset, line, col, reason));
  }
}

/** Reads a config or rule file as strict UTF-8 (fs errors are thrown as they are, with their code). */
export function readUtf8File(path: string): string {
  return decodeUtf8(path, readFileSync(path));
}

function thrown(error: Error): never {
  throw error;
}

/** The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629), or -1 when all are valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}

// [lead range, second byte's range, total length]: overlong forms, surrogates and > U+10FFFF are refused.
const LEADS: readonly (readonly [number, number, number, number, number])[] = [
  [0xc2, 0xdf, 0x80, 0xbf, 2],
  [0xe0, 0xe0, 0xa0, 0xbf, 3],
  [0xe1, 0xec, 0x80, 0xbf, 3],
  [0xed, 0xed, 0x80, 0x9f, 3],
  [0xee, 0xef, 0x80, 0xbf, 3],
  [0xf0, 0xf0, 0x90, 0xbf, 4],
  [0xf1, 0xf3, 0x80, 0xbf, 4],
  [0xf4, 0xf4, 0x80, 0x8f, 4],
];

function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] ?? 0;
  if (lead < 0x80) return 1;
  const form = LEADS.find(([lo, hi]) => lead >= lo && lead <= hi);
  if (!form) return 0;
  const [, , lo2, hi2, length] = form;
  const second = bytes[i + 1];
  if (second === undefined || second < lo2 || second > hi2) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}
