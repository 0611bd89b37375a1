// Shared by nft_in and nft_out: an NFT of the token (and optionally one serial) moved to / from the account.
import { z } from 'zod';
import { AccountId, TokenUnits } from '../../facts/values.js';
import type { Predicate } from './condition.js';

export const NftMove = z.object({ token_id: AccountId, serial: TokenUnits.optional() }).strict();
export type NftMove = z.output<typeof NftMove>;

export function nftMovePredicate(
  value: NftMove,
  side: 'sender_account_id' | 'receiver_account_id',
): Predicate {
  return (f) =>
    (f.tx?.nft_transfers ?? []).some(
      (n) =>
        n.token_id === value.token_id &&
        n[side] === f.account.id &&
        (value.serial === undefined || n.serial_number === value.serial),
    );
}
