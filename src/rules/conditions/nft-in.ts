import { defineCondition } from './shared/condition.js';
import { NftMove, nftMovePredicate } from './shared/nft-move.js';

/** An NFT of the token (optionally one serial) arrived at the watched account. */
export const nftIn = defineCondition({
  name: 'nft_in',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'An NFT of the token (optionally a given `serial`) was received by the watched account.',
  example: '{ token_id: 0.0.1234567 }',
  schema: () => NftMove,
  compile: (value: NftMove) => nftMovePredicate(value, 'receiver_account_id'),
  explain: (value: NftMove) =>
    `NFT ${value.token_id}${value.serial === undefined ? '' : ` serial ${value.serial}`} received`,
});
