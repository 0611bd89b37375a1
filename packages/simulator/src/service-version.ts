// Which era of the query service the simulator imitates. '0.129' is the shape the client was first built to
// (and the upstream spec cases): `batch_key` as 0x-hex. 'current' is what newer services send: `batch_key` as
// a key object, `high_volume` and `high_volume_pricing_multiplier` members on every transaction, and `node` and `valid_duration_seconds` null on
// the inner transactions of an atomic batch. docs/simulator.md "Service versions".
import type { WireJson } from './json.js';

export const SERVICE_VERSIONS = ['0.129', 'current'] as const;
export type ServiceVersion = (typeof SERVICE_VERSIONS)[number];

export function isServiceVersion(value: string): value is ServiceVersion {
  return (SERVICE_VERSIONS as readonly string[]).includes(value);
}

/** HIP-1313 high-volume pricing of one transaction; the living ledger's default is "not applied" (false, 0). */
export interface HighVolume {
  readonly highVolume: boolean;
  /** Fee multiplier scaled by 1000 (1000 = 1x), 0 when not applied, null before HIP-1313. */
  readonly multiplier: bigint | null;
}

const NOT_HIGH_VOLUME: HighVolume = { highVolume: false, multiplier: 0n };

/** A /transactions item as stored (the 0.129 shape) in the shape of `version`. */
export function shapeTransaction(
  json: WireJson,
  version: ServiceVersion,
  highVolume: HighVolume = NOT_HIGH_VOLUME,
): WireJson {
  if (version === '0.129') return json;
  const inner = typeof json.batch_key === 'string';
  const out: Record<string, unknown> = {};
  // Rebuilt in order: the service sends members in alphabetical order, and high_volume takes its place.
  for (const [key, value] of Object.entries(json)) {
    if (key === 'max_custom_fees') {
      out.high_volume = highVolume.highVolume;
      out.high_volume_pricing_multiplier = highVolume.multiplier;
    }
    if (key === 'batch_key') out.batch_key = typeof value === 'string' ? keyObject(value) : value;
    else if (inner && (key === 'node' || key === 'valid_duration_seconds')) out[key] = null;
    else out[key] = value;
  }
  return out;
}

/** A protobuf-encoded Key (0x-hex) as the service's key object: ED25519 and ECDSA keys unwrapped. */
export function keyObject(hex: string): { _type: string; key: string } {
  const digits = hex.replace(/^0x/i, '').toLowerCase();
  // Key field 2 (ed25519, 32 bytes) and field 7 (ECDSA secp256k1, 33 bytes compressed).
  if (digits.startsWith('1220') && digits.length === 4 + 64)
    return { _type: 'ED25519', key: digits.slice(4) };
  if (digits.startsWith('3a21') && digits.length === 4 + 66)
    return { _type: 'ECDSA_SECP256K1', key: digits.slice(4) };
  return { _type: 'ProtobufEncoded', key: digits };
}
