// Keccak-256 (the pre-standard padding Ethereum uses, not SHA3-256) and EIP-55 checksummed addresses.
// Node's crypto has sha3-256 only, and the verification simulator must echo addresses exactly as Sourcify does
// (docs/ledger-api.md §18.1). Lanes are BigInts: slow, but only a few short inputs per request are hashed.

const MASK = (1n << 64n) - 1n;
const RATE_BYTES = 136;

function roundConstants(): bigint[] {
  let r = 1;
  const bit = () => {
    const out = r & 1;
    r = ((r << 1) ^ (r & 0x80 ? 0x71 : 0)) & 0xff;
    return out;
  };
  const constants: bigint[] = [];
  for (let round = 0; round < 24; round++) {
    let rc = 0n;
    for (let j = 0; j < 7; j++) if (bit()) rc |= 1n << BigInt((1 << j) - 1);
    constants.push(rc);
  }
  return constants;
}

function rotationOffsets(): number[] {
  const offsets = new Array<number>(25).fill(0);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    offsets[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return offsets;
}

const RC = roundConstants();
const ROT = rotationOffsets();

function rotl(v: bigint, n: number): bigint {
  if (n === 0) return v;
  return ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK;
}

function permute(a: bigint[]): void {
  const c = new Array<bigint>(5);
  const b = new Array<bigint>(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) c[x] = a[x]! ^ a[x + 5]! ^ a[x + 10]! ^ a[x + 15]! ^ a[x + 20]!;
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) a[x + y] = a[x + y]! ^ d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y]!, ROT[x + 5 * y]!);
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++)
        a[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK & b[((x + 2) % 5) + y]!);
    }
    a[0] = a[0]! ^ RC[round]!;
  }
}

export function keccak256(input: Uint8Array): Buffer {
  const padded = Buffer.alloc((Math.floor(input.length / RATE_BYTES) + 1) * RATE_BYTES);
  padded.set(input);
  padded[input.length] = padded[input.length]! ^ 0x01;
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += RATE_BYTES) {
    for (let i = 0; i < RATE_BYTES / 8; i++) state[i] = state[i]! ^ padded.readBigUInt64LE(offset + i * 8);
    permute(state);
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i++) out.writeBigUInt64LE(state[i]!, i * 8);
  return out;
}

/** EIP-55: upper-case each hex letter whose nibble in keccak256(lower-case hex) is 8 or more. */
export function toChecksumAddress(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase();
  const hash = keccak256(Buffer.from(hex, 'ascii')).toString('hex');
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

/** Sourcify's address check: 40 hex digits, `0x` optional, all lower, all upper, or a correct checksum. */
export function isValidAddress(address: string): boolean {
  if (!/^(0x)?[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.replace(/^0x/, '');
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return toChecksumAddress(hex) === `0x${hex}`;
}
