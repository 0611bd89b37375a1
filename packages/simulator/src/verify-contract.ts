// The `contracts[]` entry Sourcify sends for an imported contract (docs/ledger-api.md §18.3), built deterministically from
// the address: names, paths, hashes and ids all derive from addressHash, so the same address always gets the same body.
import { createHash } from 'node:crypto';
import { addressHash, type VerifyAnswer } from './verify-answers.js';
import { keccak256 } from './verify-keccak.js';

export interface VerifiedContractBody {
  readonly verificationId: string;
  readonly constructorArgumentsArray?: readonly unknown[];
  readonly compiledPath: string;
  readonly name: string;
  readonly address: string;
  readonly chainId: string;
  readonly files: {
    readonly found: readonly string[];
    readonly missing: Readonly<Record<string, unknown>>;
    readonly invalid: Readonly<Record<string, unknown>>;
  };
  readonly status: 'perfect' | 'partial' | 'error';
  readonly statusMessage?: string;
  readonly storageTimestamp?: string;
}

/** Answers that come back as a 200 with a contract entry. */
export type ImportedAnswer = Extract<
  VerifyAnswer,
  'perfect' | 'perfect-stored' | 'partial' | 'error' | 'missing-files' | 'invalid-files'
>;

const NAMES = ['Token', 'Vault', 'Router', 'Staking', 'Multisig', 'Escrow', 'Registry', 'Proxy'];
const LIBRARY = '@openzeppelin/contracts/token/ERC20/ERC20.sol';
export const ERROR_STATUS_MESSAGE = "The deployed and recompiled bytecode don't match.";

function keccakHex(text: string): string {
  return `0x${keccak256(Buffer.from(text, 'utf8')).toString('hex')}`;
}

export function contractBody(
  checksummed: string,
  chainId: string,
  answer: ImportedAnswer,
): VerifiedContractBody {
  const h = addressHash(checksummed);
  const name = `${NAMES[h % NAMES.length]}${(h >>> 8) % 1000}`;
  const compiledPath = `contracts/${name}.sol`;
  const metadata = {
    compiler: { version: '0.8.24+commit.e11b9ed9' },
    sources: [compiledPath, LIBRARY],
    name,
  };
  const verificationId = createHash('sha1')
    .update(JSON.stringify(JSON.stringify(metadata)))
    .digest('hex');
  const withConstructor = (h & 1) === 1;
  const files = {
    found: answer === 'missing-files' ? [compiledPath] : [compiledPath, LIBRARY],
    missing:
      answer === 'missing-files'
        ? {
            [LIBRARY]: {
              keccak256: keccakHex(LIBRARY),
              urls: [`dweb:/ipfs/Qm${verificationId.slice(0, 20)}`],
            },
          }
        : {},
    invalid:
      answer === 'invalid-files'
        ? {
            [LIBRARY]: {
              expectedHash: keccakHex(`${LIBRARY}:expected`),
              calculatedHash: keccakHex(`${LIBRARY}:calculated`),
              msg: 'The keccak256 of the source file does not match the hash in the metadata.',
            },
          }
        : {},
  };
  return {
    verificationId,
    ...(withConstructor
      ? { constructorArgumentsArray: [{ internalType: 'uint256', name: 'supply', type: 'uint256' }] }
      : {}),
    compiledPath,
    name,
    address: checksummed,
    chainId,
    files,
    ...statusFields(answer, h),
  };
}

function statusFields(
  answer: ImportedAnswer,
  h: number,
): Pick<VerifiedContractBody, 'status' | 'statusMessage' | 'storageTimestamp'> {
  switch (answer) {
    case 'perfect':
      return { status: 'perfect', statusMessage: '' };
    case 'perfect-stored': {
      const stored = new Date(Date.UTC(2024, 0, 1) + (h % 365) * 86_400_000).toISOString();
      return { status: 'perfect', statusMessage: '', storageTimestamp: stored };
    }
    case 'partial':
      return { status: 'partial', statusMessage: '' };
    case 'error':
      return { status: 'error', statusMessage: ERROR_STATUS_MESSAGE };
    default:
      return { status: 'error' };
  }
}
