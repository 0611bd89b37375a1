// Byte helpers: hex keys for lookups and RFC 4648 base32 aliases.

/** Lower-case hex without 0x of bytes or hex text; null for null/undefined/empty. */
export function toHex(value: Uint8Array | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const hex =
    typeof value === 'string' ? value.replace(/^0x/i, '').toLowerCase() : Buffer.from(value).toString('hex');
  return hex === '' ? null : hex;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding; null when a character is invalid or the length cannot be a whole byte count. */
export function decodeBase32(text: string): Uint8Array | null {
  if (![0, 2, 4, 5, 7].includes(text.length % 8)) return null;
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    const value = BASE32.indexOf(char);
    if (value < 0) return null;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

/** RFC 4648 base32 without padding of lower-case hex (the service's text form of an alias). */
export function encodeBase32(hex: string): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i + 1 < hex.length; i += 2) {
    buffer = ((buffer << 8) | parseInt(hex.slice(i, i + 2), 16)) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(buffer >> bits) & 31];
    }
  }
  return bits > 0 ? out + BASE32[(buffer << (5 - bits)) & 31] : out;
}
