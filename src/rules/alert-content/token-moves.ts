// The token and NFT moves of the watched account in one transaction, for alerts: which token, how much in its
// smallest unit, and the other side. The ledger's transaction records carry no token decimals, so amounts stay
// in smallest units (docs/notifiers.md, "Token amounts").
import type { AlertTokenMove } from '../alert/alert.js';
import type { Facts } from '../facts/facts.js';

/** Moves kept per record; a transaction touching hundreds of tokens must not make a large alert. */
export const MAX_TOKEN_MOVES = 10;
/** Counterparties named per move. */
const MAX_COUNTERPARTIES = 3;

export function tokenMoves(f: Facts): AlertTokenMove[] | undefined {
  const tx = f.tx;
  if (!tx || (tx.token_transfers.length === 0 && tx.nft_transfers.length === 0)) return undefined;
  const out = [...fungibleMoves(f), ...nftMoves(f)].slice(0, MAX_TOKEN_MOVES);
  return out.length ? out : undefined;
}

function fungibleMoves(f: Facts): AlertTokenMove[] {
  const id = f.account.id;
  const net = new Map<string, bigint>();
  for (const t of f.tx?.token_transfers ?? [])
    if (t.account === id) net.set(t.token_id, (net.get(t.token_id) ?? 0n) + t.amount);
  const out: AlertTokenMove[] = [];
  for (const [tokenId, amount] of net) {
    if (amount === 0n) continue;
    // The other side: accounts whose change in the same token has the opposite sign.
    const others = (f.tx?.token_transfers ?? [])
      .filter((t) => t.token_id === tokenId && t.account !== id && t.amount > 0n !== amount > 0n)
      .map((t) => t.account);
    out.push({ tokenId, amount: amount.toString(), ...counterparty(others) });
  }
  return out;
}

function nftMoves(f: Facts): AlertTokenMove[] {
  const id = f.account.id;
  const out: AlertTokenMove[] = [];
  for (const n of f.tx?.nft_transfers ?? []) {
    const sent = n.sender_account_id === id;
    if (!sent && n.receiver_account_id !== id) continue;
    const other = sent ? n.receiver_account_id : n.sender_account_id;
    out.push({
      tokenId: n.token_id,
      amount: sent ? '-1' : '1',
      serial: n.serial_number.toString(),
      ...counterparty(other ? [other] : []),
    });
  }
  return out;
}

function counterparty(ids: readonly string[]): { counterparty?: string } {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return {};
  const more = unique.length > MAX_COUNTERPARTIES ? ` (+${unique.length - MAX_COUNTERPARTIES})` : '';
  return { counterparty: `${unique.slice(0, MAX_COUNTERPARTIES).join(', ')}${more}` };
}

/** `-1,000,000 units of 0.0.456858 (decimals unknown)` / `NFT 0.0.1234 #7 sent`. */
export function tokenMoveText(m: AlertTokenMove): string {
  if (m.serial !== undefined)
    return `NFT ${m.tokenId} #${m.serial} ${m.amount.startsWith('-') ? 'sent' : 'received'}`;
  return `${tokenUnits(m.amount, m.decimals)} of ${m.tokenId}`;
}

/** Smallest units as the token's units when the decimals are known, else grouped smallest units, saying so. */
export function tokenUnits(amount: string, decimals: number | undefined): string {
  if (!/^-?\d+$/.test(amount)) return amount;
  const negative = amount.startsWith('-');
  const digits = negative ? amount.slice(1) : amount;
  const group = (s: string) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (decimals === undefined || decimals <= 0)
    return `${negative ? '-' : ''}${group(digits)} ${decimals === undefined ? 'units (decimals unknown)' : 'units'}`;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${group(whole)}${fraction ? `.${fraction}` : ''}`;
}
