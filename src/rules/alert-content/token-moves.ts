// The token and NFT moves of the watched account in one transaction, for alerts: which token, how much in its
// smallest unit, and the other side. The records carry no decimals: the token's facts (src/tokens/) do, when the
// daemon could read them, and the amount is then also shown in the token's own units (docs/notifiers.md,
// "Token amounts").
import type { AlertTokenMove } from '../alert/alert.js';
import type { Facts } from '../facts/facts.js';
import { tokenAmountText } from '../../tokens/token-amount-text.js';

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
    out.push({ tokenId, amount: amount.toString(), ...unitsOf(f, tokenId), ...counterparty(others) });
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

/** The decimals and symbol the move is shown with, when the token's facts are known and usable. */
function unitsOf(f: Facts, tokenId: string): { decimals?: number; symbol?: string; name?: string } {
  const facts = f.event.tokenFacts?.(tokenId);
  const name = facts?.displayName ? { name: facts.displayName } : {};
  if (facts?.decimals === undefined) return name;
  return { decimals: facts.decimals, ...(facts.symbol ? { symbol: facts.symbol } : {}), ...name };
}

function counterparty(ids: readonly string[]): { counterparty?: string } {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return {};
  const more = unique.length > MAX_COUNTERPARTIES ? ` (+${unique.length - MAX_COUNTERPARTIES})` : '';
  return { counterparty: `${unique.slice(0, MAX_COUNTERPARTIES).join(', ')}${more}` };
}

/** `-2,938.43768 USDC of 0.0.456858` (`of treasury-usdc (0.0.456858)` with a configured name), `-1,000,000 units (decimals unknown) of 0.0.456858`, `NFT 0.0.1234 #7 sent`. */
export function tokenMoveText(m: AlertTokenMove): string {
  if (m.serial !== undefined)
    return `NFT ${m.tokenId} #${m.serial} ${m.amount.startsWith('-') ? 'sent' : 'received'}`;
  const token = m.name ? `${m.name} (${m.tokenId})` : m.tokenId;
  return `${tokenUnits(m.amount, m.decimals, m.symbol)} of ${token}`;
}

/** The amount in the token's own units when its decimals are known, else grouped raw units, saying so. */
export function tokenUnits(amount: string, decimals: number | undefined, symbol?: string): string {
  return tokenAmountText(amount, { decimals, symbol });
}
