import { defineCondition } from './shared/condition.js';
import { NftMove, nftMovePredicate } from './shared/nft-move.js';

/** An NFT of the token (optionally one serial) left the watched account. */
export const nftOut = defineCondition({
  name: 'nft_out',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'An NFT of the token (optionally a given `serial`) was sent by the watched account.',
  example: '{ token_id: 0.0.1234567, serial: 42 }',
  schema: () => NftMove,
  compile: (value: NftMove) => nftMovePredicate(value, 'sender_account_id'),
  explain: (value: NftMove) =>
    `NFT ${value.token_id}${value.serial === undefined ? '' : ` serial ${value.serial}`} sent`,
});
