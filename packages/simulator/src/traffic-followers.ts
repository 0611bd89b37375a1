// The records a logical transaction brings after it: contract children (nonce > 0), scheduled executions and
// atomic-batch inner transactions, each taking the next nanoseconds after the parent.
import type { Common, GeneratedRecord, State } from './generated-record.js';
import type { SimAccount } from './traffic-population.js';
import type { MixType } from './traffic-mix.js';
import { buildTransaction, feeLegs, resultCode, type TxDraft } from './traffic-record.js';
import { otherAccount, sampleAmount } from './traffic-shapes.js';

/** Records that follow the parent: contract children, scheduled executions, batch inner transactions. */
export function followers(
  state: State,
  parent: GeneratedRecord & { draft: TxDraft },
  type: MixType,
  success: boolean,
  baseNs: bigint,
  common: Common,
): GeneratedRecord[] {
  const { rng } = state;
  if (!success) return [];
  const out: GeneratedRecord[] = [];
  const child = (n: number, draft: Partial<TxDraft>) => {
    const to = otherAccount(rng, state.population, parent.draft.payer).num;
    const amount = sampleAmount(rng);
    const from = draft.payer ?? parent.draft.entityId ?? parent.draft.payer;
    const fee = draft.fee ?? 0n;
    const full: TxDraft = {
      ...parent.draft,
      type: 14,
      result: resultCode('SUCCESS'),
      consensusNs: baseNs + BigInt(n),
      fee,
      legs: [
        { account: from, amount: -amount },
        { account: to, amount },
        ...feeLegs(from, parent.draft.node, fee),
      ],
      tokenLegs: [],
      nftLegs: [],
      stakingRewards: [],
      memoBase64: '',
      entityId: null,
      hash: rng.bytes(48),
      ...draft,
    };
    out.push({
      tx: buildTransaction(full),
      actions: [],
      rewards: [],
      contractHash: null,
      entities: [],
      contracts: [],
    });
  };
  if (type.shape === 'contract-call' && rng.chance(0.2)) {
    const count = rng.between(1, 3);
    for (let n = 1; n <= count; n++) child(n, { nonce: n, parentNs: baseNs });
  } else if (type.shape === 'schedule-create' || type.shape === 'schedule-sign') {
    scheduled(state, type, common, child);
  } else if (type.shape === 'batch') {
    batchInner(state, baseNs, common, child);
  }
  return out;
}

/** A background payer: any account but the quiet ones (all of them if every account is quiet). */
export function pickPayer({ rng, population, options }: State): SimAccount {
  if (options.quietAccounts.length === 0) return rng.pick(population.accounts);
  const loud = population.accounts.filter((a) => !options.quietAccounts.includes(a.num));
  return rng.pick(loud.length > 0 ? loud : population.accounts);
}

type ChildMaker = (n: number, draft: Partial<TxDraft>) => void;

/** Two inner transactions of an atomic batch: their own payers and ids, the batch as parent, a batch_key. */
function batchInner(state: State, baseNs: bigint, common: Common, child: ChildMaker): void {
  const { rng } = state;
  for (let n = 1; n <= 2; n++) {
    const inner = pickPayer(state).num;
    const validStartNs = baseNs - BigInt(rng.between(1_000_000_000, 5_000_000_000));
    const fee = BigInt(rng.between(60_000, 500_000));
    const to = otherAccount(rng, state.population, inner).num;
    child(n, {
      payer: inner,
      idPayer: inner,
      validStartNs,
      idValidStartNs: validStartNs,
      parentNs: baseNs,
      fee,
      batchKey: `0x1220${rng.bytes(32).toString('hex')}`,
      legs: [
        ...feeLegs(inner, common.node, fee),
        { account: inner, amount: -1000n },
        { account: to, amount: 1000n },
      ],
    });
  }
}

function scheduled(state: State, type: MixType, common: Common, child: ChildMaker): void {
  const { rng } = state;
  if (type.shape === 'schedule-create' && rng.chance(0.5)) {
    state.pendingSchedules.push(common.id);
    return;
  }
  const id = type.shape === 'schedule-create' ? common.id : state.pendingSchedules.shift();
  if (!id) return;
  child(1, {
    payer: id.payer,
    idPayer: id.payer,
    validStartNs: id.validStartNs,
    idValidStartNs: id.validStartNs,
    scheduled: true,
    fee: BigInt(rng.between(60_000, 2_500_000)),
  });
}
