// Every condition, one line each; registry.test.ts checks this list against the files in this folder.
import type { Condition } from './shared/condition.js';
import { action } from './action.js';
import { all } from './all.js';
import { any } from './any.js';
import { batch } from './batch.js';
import { callDepth } from './call-depth.js';
import { child } from './child.js';
import { counterparty } from './counterparty.js';
import { credit } from './credit.js';
import { debit } from './debit.js';
import { fee } from './fee.js';
import { memo } from './memo.js';
import { nftIn } from './nft-in.js';
import { nftOut } from './nft-out.js';
import { not } from './not.js';
import { payer } from './payer.js';
import { result } from './result.js';
import { reward } from './reward.js';
import { scheduled } from './scheduled.js';
import { tokenCredit } from './token-credit.js';
import { tokenDebit } from './token-debit.js';
import { type } from './type.js';

export const CONDITIONS: readonly Condition[] = [
  result,
  type,
  debit,
  credit,
  tokenDebit,
  tokenCredit,
  nftIn,
  nftOut,
  fee,
  memo,
  counterparty,
  payer,
  scheduled,
  child,
  batch,
  reward,
  callDepth,
  action,
  all,
  any,
  not,
];

export const CONDITIONS_BY_NAME: ReadonlyMap<string, Condition> = new Map(CONDITIONS.map((c) => [c.name, c]));
