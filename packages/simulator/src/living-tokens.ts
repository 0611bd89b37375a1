// The tokens and balances of the living ledger (docs/simulator.md, "Tokens and balances"). At genesis every
// population account holds HBAR and a share of every fungible token (the rest stays with the treasury, 0.0.2);
// from then on every committed record moves them: its HBAR legs always (fees are charged on failure too), its
// token and NFT legs when it succeeded, mints, burns and wipes moving the total supply with them. Token admin
// records change the token as the service would: TOKENUPDATE rotates its keys, TOKENPAUSE/TOKENUNPAUSE set the
// pause status, TOKENFEESCHEDULEUPDATE starts a new custom-fee schedule, TOKENDELETION deletes it. Balance
// snapshots are taken every 15 minutes of consensus time, as the service's balance files are.
import { transactionTypeName } from '@ledger-sentinel/ledger-model/transaction-types';
import type { BalanceBook } from './balance-book.js';
import { createRng } from './rng.js';
import type { SimTransaction } from './store.js';
import type { SimToken, SimTokenRow, TokenKeyName } from './token-json.js';
import { TREASURY, type Population } from './traffic-population.js';

/** Genesis HBAR balance of every population account and the treasury: 1,000,000 HBAR in tinybars. */
export const GENESIS_HBAR = 100_000_000_000_000n;
/** Genesis holding of every fungible token per population account, in the token's smallest units. */
export const GENESIS_TOKEN_SHARE = 1_000_000_000_000n;
const INITIAL_SUPPLY = 1_000_000_000_000_000_000n;
const DECIMALS: readonly bigint[] = [8n, 6n, 2n, 0n, 18n, 4n];
const SYMBOLS: readonly string[] = ['USDC', 'SAUCE', 'HBARX', 'PACK', 'WETH', 'GRELF'];
const KEY_NAMES: readonly TokenKeyName[] = ['fee_schedule', 'freeze', 'kyc', 'pause', 'supply', 'wipe'];
const NINETY_DAYS_S = 7_776_000n;
const NS_PER_SECOND = 1_000_000_000n;
const SUCCESS = 22;
/** Balance snapshots every 15 minutes of consensus time. */
export const SNAPSHOT_INTERVAL_NS = 900n * 1_000_000_000n;
/** Versions kept per token row, entity row and fee schedule (admin records keep adding them). */
const MAX_VERSIONS = 64;

/** A protobuf ED25519 Key (hex) derived from a label, so a seeded ledger always has the same keys. */
function ed25519Key(label: string): string {
  return `1220${createRng(label).bytes(32).toString('hex')}`;
}

function tokenRow(num: number, index: number, nft: boolean, since: bigint): SimTokenRow {
  const keys = Object.fromEntries(
    KEY_NAMES.map((name) => [name, ed25519Key(`token:${num}:${name}:${since}`)]),
  ) as Record<TokenKeyName, string | null>;
  return {
    since,
    name: nft ? `Collection ${num}` : `${SYMBOLS[index % SYMBOLS.length]} token`,
    symbol: nft ? `NFT${num}` : `${SYMBOLS[index % SYMBOLS.length]}${index >= SYMBOLS.length ? index : ''}`,
    decimals: nft ? 0n : (DECIMALS[index % DECIMALS.length] as bigint),
    type: nft ? 'NON_FUNGIBLE_UNIQUE' : 'FUNGIBLE_COMMON',
    supplyType: 'INFINITE',
    initialSupply: nft ? 0n : INITIAL_SUPPLY,
    maxSupply: 9223372036854775807n,
    treasury: BigInt(TREASURY),
    createdTimestamp: since,
    freezeDefault: false,
    pauseStatus: 'UNPAUSED',
    keys: { ...keys, metadata: null },
    metadataHex: '',
  };
}

/** Genesis state at `genesisNs`: tokens, treasury and account balances, one snapshot. */
export function createLivingTokens(book: BalanceBook, population: Population, genesisNs: bigint): void {
  const accounts = population.accounts.map((a) => BigInt(a.num));
  const treasury = BigInt(TREASURY);
  book.setHbar(treasury, GENESIS_HBAR, genesisNs);
  for (const id of accounts) book.setHbar(id, GENESIS_HBAR, genesisNs);
  const all = [
    ...population.tokens.map((num) => [num, false] as const),
    ...population.nftTokens.map((num) => [num, true] as const),
  ];
  all.forEach(([num, nft], index) => {
    const row = tokenRow(num, index, nft, genesisNs);
    const entity = {
      since: genesisNs,
      adminKeyHex: ed25519Key(`token:${num}:admin:${genesisNs}`),
      autoRenewAccount: treasury,
      autoRenewPeriod: NINETY_DAYS_S,
      deleted: false,
      expirationTimestamp: genesisNs + NINETY_DAYS_S * NS_PER_SECOND,
      memo: `${row.symbol} (simulated)`,
    };
    const fees = [{ since: genesisNs, fixed: [], fractional: [], royalty: [] }];
    const tokenId = BigInt(num);
    book.putToken({ tokenId, rows: [row], entities: [entity], fees, totalSupply: row.initialSupply });
    const share = nft ? 0n : GENESIS_TOKEN_SHARE;
    const rest = row.initialSupply - share * BigInt(accounts.length);
    book.setTokenAccount({
      tokenId,
      accountId: treasury,
      balance: rest,
      balanceTimestamp: genesisNs,
      associated: true,
    });
    for (const id of accounts) {
      book.setTokenAccount({
        tokenId,
        accountId: id,
        balance: share,
        balanceTimestamp: genesisNs,
        associated: true,
      });
    }
  });
  book.takeSnapshot(genesisNs);
}

/** Applies one committed record: balances and supply, then what a token admin record changes. */
export function applyLivingRecord(book: BalanceBook, tx: SimTransaction): void {
  const nfts = Array.isArray(tx.json.nft_transfers)
    ? (tx.json.nft_transfers as Record<string, unknown>[])
    : [];
  book.applyRecord({
    consensusTimestamp: tx.consensusTimestamp,
    result: tx.result,
    transfers: tx.transfers,
    tokenTransfers: tx.tokenTransfers,
    nftTransfers: nfts.map((n) => ({
      tokenId: entityNum(n.token_id) ?? 0n,
      sender: entityNum(n.sender_account_id),
      receiver: entityNum(n.receiver_account_id),
    })),
  });
  if (tx.result !== SUCCESS) return;
  const tokenId = entityNum(tx.json.entity_id);
  const token = tokenId === null ? undefined : book.getToken(tokenId);
  if (token === undefined) return;
  const changed = adminChange(token, transactionTypeName(tx.type), tx.consensusTimestamp);
  if (changed === token) return;
  book.putToken({
    ...changed,
    rows: changed.rows.slice(-MAX_VERSIONS),
    entities: changed.entities.slice(-MAX_VERSIONS),
    fees: changed.fees.slice(-MAX_VERSIONS),
  });
}

function adminChange(token: SimToken, type: string, ts: bigint): SimToken {
  const row = token.rows[token.rows.length - 1] as SimTokenRow;
  const entity = token.entities[token.entities.length - 1];
  const newRow = (change: Partial<SimTokenRow>) => ({
    ...token,
    rows: [...token.rows, { ...row, ...change, since: ts }],
  });
  switch (type) {
    case 'TOKENUPDATE': {
      const keys = { ...row.keys, supply: ed25519Key(`token:${token.tokenId}:supply:${ts}`) };
      const admin = ed25519Key(`token:${token.tokenId}:admin:${ts}`);
      const entities = entity
        ? [...token.entities, { ...entity, since: ts, adminKeyHex: admin }]
        : token.entities;
      return { ...newRow({ keys }), entities };
    }
    case 'TOKENPAUSE':
      return newRow({ pauseStatus: 'PAUSED' });
    case 'TOKENUNPAUSE':
      return newRow({ pauseStatus: 'UNPAUSED' });
    case 'TOKENFEESCHEDULEUPDATE': {
      const fixed = [
        {
          all_collectors_are_exempt: false,
          amount: (ts % 1000n) + 1n,
          collector_account_id: '0.0.98',
          denominating_token_id: null,
        },
      ];
      return { ...token, fees: [...token.fees, { since: ts, fixed, fractional: [], royalty: [] }] };
    }
    case 'TOKENDELETION':
      return entity
        ? { ...token, entities: [...token.entities, { ...entity, since: ts, deleted: true }] }
        : token;
    default:
      return token;
  }
}

function entityNum(value: unknown): bigint | null {
  if (typeof value !== 'string') return null;
  const parts = value.split('.');
  if (parts.length !== 3 || !parts.every((p) => /^\d+$/.test(p))) return null;
  const [shard, realm, num] = parts.map((p) => BigInt(p)) as [bigint, bigint, bigint];
  return (shard << 54n) | (realm << 38n) | num;
}
