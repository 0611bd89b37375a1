// The synthetic ledger's transaction generator: deterministic from a seed, one logical transaction per call at a
// given consensus timestamp. A logical transaction may yield several records — contract children (nonce > 0),
// scheduled executions and atomic-batch inner transactions — that share or reference its transaction id and take
// the next nanoseconds, so callers must space base timestamps at least MAX_RECORDS_PER_CALL ns apart.
import type { SimEntityInput } from './store.js';
import { createRng } from './rng.js';
import { pickMemoBase64 } from './hostile.js';
import { buildTrace } from './traffic-actions.js';
import { FAILURES, pickType, TRANSACTION_MIX, type MixType } from './traffic-mix.js';
import {
  createPopulation,
  newContract,
  NODES,
  STAKING_REWARD_ACCOUNT,
  type Population,
  type SimAccount,
  type SimContract,
} from './traffic-population.js';
import { followers, pickPayer } from './traffic-followers.js';
import type { Common, GeneratedRecord, RecordOverrides, State, TrafficOptions } from './generated-record.js';
import { buildTransaction, feeLegs, resultCode, type Leg, type TxDraft } from './traffic-record.js';
import { buildShape, sampleAmount, type ShapeBody } from './traffic-shapes.js';

export type {
  GeneratedRecord,
  GeneratedReward,
  RecordOverrides,
  TrafficOptions,
} from './generated-record.js';

export const MAX_RECORDS_PER_CALL = 8;

export interface Traffic {
  readonly population: Population;
  /** One logical transaction at `baseNs` (1..MAX_RECORDS_PER_CALL records, consecutive nanoseconds). */
  generate(baseNs: bigint, overrides?: RecordOverrides): GeneratedRecord[];
}

export function createTraffic(options: TrafficOptions): Traffic {
  const rng = createRng(`traffic:${options.seed}`);
  const population = createPopulation(rng.fork('population'), {
    accounts: options.accounts ?? 200,
    tokens: 6,
    nftTokens: 3,
    contracts: 12,
  });
  const state: State = {
    rng,
    population,
    options: {
      accounts: options.accounts ?? 200,
      failureRate: options.failureRate ?? 0.05,
      hostileMemoRate: options.hostileMemoRate ?? 0.02,
      deepTraceRate: options.deepTraceRate ?? 0.03,
      quietAccounts: options.quietAccounts ?? [],
    },
    coverage: [...TRANSACTION_MIX].reverse(),
    pendingSchedules: [],
    recentIds: [],
  };
  return { population, generate: (baseNs, overrides = {}) => generateLogical(state, baseNs, overrides) };
}

function generateLogical(state: State, baseNs: bigint, o: RecordOverrides): GeneratedRecord[] {
  const { rng, population, options } = state;
  const type = o.type ?? state.coverage.pop() ?? pickType(rng.next());
  let payer = o.payer ?? pickPayer(state);
  const failed =
    o.result !== undefined
      ? o.result
      : rng.chance(options.failureRate)
        ? rng.pick(FAILURES[type.shape])
        : null;
  const resultName = failed ?? 'SUCCESS';
  const success = resultName === 'SUCCESS';
  let id = { payer: payer.num, validStartNs: baseNs - BigInt(rng.between(1_000_000_000, 5_000_000_000)) };
  // A duplicate repeats a recent id; an injected record keeps its payer, so it repeats one of that payer's ids.
  const repeatable = o.payer ? state.recentIds.filter((r) => r.payer === o.payer?.num) : state.recentIds;
  if (resultName === 'DUPLICATE_TRANSACTION' && repeatable.length > 0) {
    id = rng.pick(repeatable);
    payer = population.accounts.find((a) => a.num === id.payer) ?? payer;
  } else {
    state.recentIds.push(id);
    if (state.recentIds.length > 32) state.recentIds.shift();
  }
  const contract = type.shape === 'contract-call' || type.shape === 'contract-create';
  const body: ShapeBody = contract
    ? { legs: [], tokenLegs: [], nftLegs: [], entityId: null, created: [] }
    : buildShape(type.shape, { rng, population, payer, success, typeName: type.name });
  if (o.legs) body.legs = [...o.legs];
  const common = { payer, id, node: rng.pick(NODES), resultName };
  const record = baseRecord(state, baseNs, type, body, common, o);
  const parent = contract ? withTrace(state, record, type, success, o) : record;
  const extra = followers(state, parent, type, success, baseNs, common);
  // The draft is dropped here: records live as long as the ground truth, drafts only as long as this call.
  const parentRecord: GeneratedRecord = {
    tx: parent.tx,
    actions: parent.actions,
    rewards: parent.rewards,
    contractHash: parent.contractHash,
    entities: parent.entities,
    contracts: parent.contracts,
    tag: parent.tag,
  };
  return extra.length === 0 ? [parentRecord] : [parentRecord, ...extra];
}

function baseRecord(
  state: State,
  consensusNs: bigint,
  type: MixType,
  body: ShapeBody,
  common: Common,
  o: RecordOverrides,
): GeneratedRecord & { draft: TxDraft } {
  const { rng } = state;
  const success = common.resultName === 'SUCCESS';
  const fee =
    o.fee ?? BigInt(rng.between(60_000, type.shape.startsWith('contract') ? 40_000_000 : 2_500_000));
  const legs = [...body.legs, ...feeLegs(common.payer.num, common.node, fee)];
  const stakingRewards: Leg[] = [];
  if (success && common.payer.staked && rng.chance(0.03)) {
    const reward = BigInt(rng.between(1_000, 50_000_000));
    legs.push(
      { account: STAKING_REWARD_ACCOUNT, amount: -reward },
      { account: common.payer.num, amount: reward },
    );
    stakingRewards.push({ account: common.payer.num, amount: reward });
  }
  const draft: TxDraft = {
    type: type.code,
    result: resultCode(common.resultName),
    payer: common.payer.num,
    node: common.node,
    consensusNs,
    validStartNs: common.id.validStartNs,
    idPayer: common.id.payer,
    idValidStartNs: common.id.validStartNs,
    fee,
    legs,
    tokenLegs: body.tokenLegs,
    nftLegs: body.nftLegs,
    stakingRewards,
    memoBase64: o.memoBase64 ?? pickMemoBase64(rng, state.options.hostileMemoRate),
    entityId: body.entityId,
    nonce: 0,
    parentNs: null,
    scheduled: false,
    batchKey: null,
    hash: rng.bytes(48),
  };
  return {
    draft,
    tx: buildTransaction(draft),
    actions: [],
    rewards: stakingRewards.map((r) => ({
      accountId: BigInt(r.account),
      amount: r.amount,
      timestamp: consensusNs,
    })),
    contractHash: null,
    entities: body.created.map(accountEntity),
    contracts: [],
    tag: o.tag,
  };
}

export function accountEntity(account: SimAccount): SimEntityInput {
  return { id: BigInt(account.num), alias: account.alias, evmAddress: account.evmAddress };
}

function contractEntity(contract: SimContract): SimEntityInput {
  return { id: BigInt(contract.num), evmAddress: contract.evmAddress, type: 'CONTRACT' };
}

function withTrace(
  state: State,
  record: GeneratedRecord & { draft: TxDraft },
  type: MixType,
  success: boolean,
  o: RecordOverrides,
): GeneratedRecord & { draft: TxDraft } {
  const { rng, population } = state;
  const created: SimContract[] = [];
  const fresh = () => {
    const contract = newContract(rng, population, record.draft.consensusNs);
    population.contracts.push(contract);
    created.push(contract);
    return contract;
  };
  const create = type.shape === 'contract-create';
  const target = create ? fresh() : rng.pick(population.contracts);
  const reverted = record.draft.result === resultCode('CONTRACT_REVERT_EXECUTED');
  const deep = rng.chance(state.options.deepTraceRate);
  const maxDepth = o.traceDepth ?? (deep ? rng.between(10, 14) : rng.between(0, 3));
  const actions = buildTrace(rng, {
    consensusNs: record.draft.consensusNs,
    payer: record.draft.payer,
    target,
    create,
    reverted,
    maxDepth,
    pickContract: () => rng.pick(population.contracts),
    newContract: fresh,
  });
  const value = success && !create && rng.chance(0.2) ? sampleAmount(rng) : 0n;
  const legs =
    value > 0n && !o.legs
      ? [
          ...record.draft.legs,
          { account: record.draft.payer, amount: -value },
          { account: target.num, amount: value },
        ]
      : record.draft.legs;
  const draft: TxDraft = { ...record.draft, legs, entityId: target.num };
  return {
    ...record,
    draft,
    tx: buildTransaction(draft),
    actions,
    contractHash: draft.hash.subarray(0, 32).toString('hex'),
    entities: [...record.entities, ...created.map(contractEntity)],
    contracts: created,
  };
}
