// Kind: one watched account's staking rewards, GET /api/v1/accounts/<id|alias>/rewards, by timestamp. Covered by
// the global tail (from each transaction's staking_reward_transfers) unless the account is watched by alias
// only: the global tail matches ids, so those keep a stream of their own (`rwp:<alias>`).
import { ENTITY_ID_PATTERN } from '@ledger-sentinel/ledger-model/entity-id';
import type { StakingReward } from '@ledger-sentinel/ledger-model/schema';
import { involvesAccount } from '../../involves-account.js';
import { timestampCursor } from '../../../cursor/timestamp-cursor.js';
import { listedPosition } from '../../listed-position.js';
import type { ListedStreamKind } from '../../stream-kind.js';

export const accountRewards: ListedStreamKind = {
  name: 'rewards',
  endpoint: '/api/v1/accounts/<id|alias>/rewards',
  subject: 'account',
  cursor: timestampCursor,
  settlement: { lateVisibility: 'overlap' },
  takesPushdown: false,
  key(account) {
    // Only an entry without a numeric id is out of the global tail's reach (it matches ids, not aliases).
    const coveredByGlobal = ENTITY_ID_PATTERN.test(account.id);
    return { key: coveredByGlobal ? `rw:${account.id}` : `rwp:${account.rewardsPath}`, coveredByGlobal };
  },
  position: listedPosition,
  list: (source, stream, page, options) => source.rewards(stream.account.rewardsPath, page, options),
  involves: involvesAccount,
  handOver: (record, account) => ({ source: 'rewards', record: record as StakingReward, account }),
};
