// The transaction mix: every 0.129 type with a weight and a shape (how its transfers and side effects are built),
// and the failure results each shape can end with. Weights are relative; every type has at least 0.05 so a long
// run shows all of them (and the generator also walks every type once at start-up).
import { TRANSACTION_TYPE_NAMES } from '@ledger-sentinel/ledger-model/transaction-types';

export type TxShape =
  | 'transfer'
  | 'contract-call'
  | 'contract-create'
  | 'create-account'
  | 'token-transfer'
  | 'token-mint'
  | 'token-burn'
  | 'token-wipe'
  | 'nft-update'
  | 'topic-message'
  | 'schedule-create'
  | 'schedule-sign'
  | 'batch'
  | 'plain';

interface MixEntry {
  readonly weight: number;
  readonly shape: TxShape;
}

const MIX: Readonly<Record<string, MixEntry>> = {
  CRYPTOTRANSFER: { weight: 45, shape: 'transfer' },
  CONSENSUSSUBMITMESSAGE: { weight: 15, shape: 'topic-message' },
  CONTRACTCALL: { weight: 8, shape: 'contract-call' },
  ETHEREUMTRANSACTION: { weight: 4, shape: 'contract-call' },
  CONTRACTCREATEINSTANCE: { weight: 1.5, shape: 'contract-create' },
  CRYPTOCREATEACCOUNT: { weight: 2, shape: 'create-account' },
  TOKENMINT: { weight: 2, shape: 'token-mint' },
  TOKENBURN: { weight: 0.5, shape: 'token-burn' },
  TOKENWIPE: { weight: 0.2, shape: 'token-wipe' },
  TOKENAIRDROP: { weight: 1, shape: 'token-transfer' },
  TOKENCLAIMAIRDROP: { weight: 0.3, shape: 'token-transfer' },
  TOKENREJECT: { weight: 0.2, shape: 'token-transfer' },
  TOKENUPDATENFTS: { weight: 0.2, shape: 'nft-update' },
  TOKENASSOCIATE: { weight: 2, shape: 'plain' },
  SCHEDULECREATE: { weight: 1, shape: 'schedule-create' },
  SCHEDULESIGN: { weight: 0.5, shape: 'schedule-sign' },
  ATOMICBATCH: { weight: 0.3, shape: 'batch' },
  CRYPTOUPDATEACCOUNT: { weight: 1, shape: 'plain' },
  CRYPTOAPPROVEALLOWANCE: { weight: 1, shape: 'plain' },
  UTILPRNG: { weight: 0.5, shape: 'plain' },
};

export interface MixType {
  readonly code: number;
  readonly name: string;
  readonly shape: TxShape;
  readonly weight: number;
}

/** Every type code with its weight and shape; types not listed above are fee-only ('plain') at weight 0.05-0.3. */
export const TRANSACTION_MIX: readonly MixType[] = [...TRANSACTION_TYPE_NAMES].map(([code, name]) => {
  const entry = MIX[name];
  const rare = /^(FREEZE|SYSTEM|NODE|UNCHECKED)/.test(name) ? 0.05 : 0.2;
  return { code, name, shape: entry?.shape ?? 'plain', weight: entry?.weight ?? rare };
});

const CUMULATIVE = (() => {
  let sum = 0;
  return TRANSACTION_MIX.map((t) => (sum += t.weight));
})();
const TOTAL_WEIGHT = CUMULATIVE[CUMULATIVE.length - 1] ?? 1;

/** The type for a uniform draw u in [0, 1). */
export function pickType(u: number): MixType {
  const target = u * TOTAL_WEIGHT;
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((CUMULATIVE[mid] as number) > target) hi = mid;
    else lo = mid + 1;
  }
  return TRANSACTION_MIX[lo] as MixType;
}

const GENERIC_FAILURES = [
  'INSUFFICIENT_PAYER_BALANCE',
  'INVALID_SIGNATURE',
  'INSUFFICIENT_TX_FEE',
  'DUPLICATE_TRANSACTION',
];

/** Realistic failure results per shape; the generic ones can hit any transaction. */
export const FAILURES: Readonly<Record<TxShape, readonly string[]>> = {
  transfer: [
    ...GENERIC_FAILURES,
    'INSUFFICIENT_ACCOUNT_BALANCE',
    'ACCOUNT_DELETED',
    'INVALID_ACCOUNT_AMOUNTS',
  ],
  'contract-call': [
    'CONTRACT_REVERT_EXECUTED',
    'CONTRACT_REVERT_EXECUTED',
    'INSUFFICIENT_GAS',
    'CONTRACT_EXECUTION_EXCEPTION',
    'INSUFFICIENT_PAYER_BALANCE',
  ],
  'contract-create': [
    'CONTRACT_REVERT_EXECUTED',
    'INSUFFICIENT_GAS',
    'MAX_GAS_LIMIT_EXCEEDED',
    'INVALID_SIGNATURE',
  ],
  'create-account': [...GENERIC_FAILURES, 'INSUFFICIENT_ACCOUNT_BALANCE', 'INVALID_ALIAS_KEY'],
  'token-transfer': [
    ...GENERIC_FAILURES,
    'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT',
    'INSUFFICIENT_TOKEN_BALANCE',
    'ACCOUNT_FROZEN_FOR_TOKEN',
    'TOKEN_IS_PAUSED',
  ],
  'token-mint': [...GENERIC_FAILURES, 'INVALID_TOKEN_MINT_AMOUNT', 'TOKEN_MAX_SUPPLY_REACHED'],
  'token-burn': [...GENERIC_FAILURES, 'INVALID_TOKEN_BURN_AMOUNT'],
  'token-wipe': [...GENERIC_FAILURES, 'INVALID_WIPING_AMOUNT', 'CANNOT_WIPE_TOKEN_TREASURY_ACCOUNT'],
  'nft-update': [...GENERIC_FAILURES, 'INVALID_NFT_ID'],
  'topic-message': [...GENERIC_FAILURES, 'INVALID_TOPIC_ID', 'INVALID_SUBMIT_KEY'],
  'schedule-create': [...GENERIC_FAILURES, 'IDENTICAL_SCHEDULE_ALREADY_CREATED'],
  'schedule-sign': [...GENERIC_FAILURES, 'SCHEDULE_ALREADY_EXECUTED', 'INVALID_SCHEDULE_ID'],
  batch: [...GENERIC_FAILURES, 'INNER_TRANSACTION_FAILED'],
  plain: GENERIC_FAILURES,
};
