// Loads an upstream spec-test `setup` into a fresh store, following docs/ledger-api.md appendix F: defaults, derived
// fee rows, cryptotransfers expansion, reward rows, entities (history rows skipped), contract results' hash
// links and contract actions, plus `config` overrides and `features.fakeTime`.
import { defaultSimulatorConfig, type SimulatorConfig } from './config.js';
import { makeSimContractAction } from './action-json.js';
import {
  boolInput,
  bytesInput,
  entityInput,
  fakeTimeInput,
  intInput,
  isHistoryRow,
  items,
  nullableInt,
} from './fixture-values.js';
import { SimulatorStore, type SimEntityVersion } from './store.js';
import type { HighVolume } from './service-version.js';
import { loadTokenFixtures, rangeLower } from './fixture-tokens.js';
import { ACCOUNT_ROW_DEFAULTS, CONTRACT_ROW_DEFAULTS, accountDetails } from './fixture-accounts.js';
import { expandCryptoTransfer, toTransactionRow } from './fixture-transactions.js';
import { makeSimTransaction, type TransferInput } from './transaction-json.js';

export interface LoadedFixture {
  readonly store: SimulatorStore;
  readonly config: SimulatorConfig;
}

export interface LoadFixtureOptions {
  /** Overrides setup.config.query.bindTimestampRange (the matrix); default from setup, else false. */
  readonly bindTimestampRange?: boolean;
}

const DEFAULT_CONTRACT_HASH = Uint8Array.from({ length: 32 }, (_, i) => i);

/** A fresh store and config for one spec setup (parse the spec with parseSpecJson for exact int64s). */
export function loadFixture(setup: Record<string, unknown>, options: LoadFixtureOptions = {}): LoadedFixture {
  const store = new SimulatorStore();
  const stakes = new Map(
    items(setup.entityStakes).map((s) => [entityInput(s.id) ?? 0n, intInput(s.pending_reward, 0n)] as const),
  );
  // Every version of each entity row (history rows included), for timestamp queries; since = the earliest.
  const versions = new Map<bigint, SimEntityVersion[]>();
  const kinds: Array<[Record<string, unknown>[], Record<string, unknown>]> = [
    [items(setup.accounts), ACCOUNT_ROW_DEFAULTS],
    [items(setup.contracts), CONTRACT_ROW_DEFAULTS],
    [items(setup.entities), {}],
  ];
  for (const [rows, defaults] of kinds) {
    for (const item of rows) {
      const id = rowId(item);
      const list = versions.get(id) ?? [];
      list.push({
        since: rangeLower(item.timestamp_range) ?? 0n,
        details: accountDetails(item, defaults),
        balance: nullableInt(item.balance),
        balanceTimestamp: nullableInt(item.balance_timestamp),
      });
      versions.set(
        id,
        list.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0)),
      );
    }
  }
  const rows = { stakes, versions };
  for (const item of items(setup.accounts)) addEntity(store, item, 'ACCOUNT', ACCOUNT_ROW_DEFAULTS, rows);
  for (const item of items(setup.contracts)) addEntity(store, item, 'CONTRACT', CONTRACT_ROW_DEFAULTS, rows);
  for (const item of items(setup.contractactions)) addAction(store, item);
  for (const item of items(setup.contractresults)) addContractResult(store, item);
  for (const item of items(setup.entities)) addEntity(store, item, 'ACCOUNT', {}, rows);
  loadTokenFixtures(store.balances, setup);
  const rewards = addRewards(store, items(setup.stakingRewardTransfers));
  const txItems = [...items(setup.cryptotransfers).map(expandCryptoTransfer), ...items(setup.transactions)];
  for (const item of txItems) {
    const row = toTransactionRow(item);
    const tx = makeSimTransaction({ ...row, stakingRewards: rewards.get(row.consensusTimestamp) ?? [] });
    store.addTransaction({ ...tx, highVolume: highVolumeInput(item) });
  }
  return { store, config: fixtureConfig(setup, options) };
}

function fixtureConfig(setup: Record<string, unknown>, options: LoadFixtureOptions): SimulatorConfig {
  const overrides = (setup.config ?? {}) as {
    response?: {
      limit?: { max?: unknown; tokenBalance?: { multipleAccounts?: unknown; singleAccount?: unknown } };
    };
    query?: { bindTimestampRange?: unknown; maxRepeatedQueryParameters?: unknown };
  };
  const features = (setup.features ?? {}) as { fakeTime?: unknown };
  const now = fakeTimeInput(features.fakeTime);
  const base = defaultSimulatorConfig();
  return {
    ...base,
    maxLimit: Number(intInput(overrides.response?.limit?.max, BigInt(base.maxLimit))),
    maxRepeatedQueryParameters: Number(
      intInput(overrides.query?.maxRepeatedQueryParameters, BigInt(base.maxRepeatedQueryParameters)),
    ),
    tokenBalanceLimit: {
      multipleAccounts: Number(
        intInput(
          overrides.response?.limit?.tokenBalance?.multipleAccounts,
          BigInt(base.tokenBalanceLimit.multipleAccounts),
        ),
      ),
      singleAccount: Number(
        intInput(
          overrides.response?.limit?.tokenBalance?.singleAccount,
          BigInt(base.tokenBalanceLimit.singleAccount),
        ),
      ),
    },
    bindTimestampRange: options.bindTimestampRange ?? boolInput(overrides.query?.bindTimestampRange, false),
    ...(now === null ? {} : { now: () => now }),
  };
}

function addEntity(
  store: SimulatorStore,
  item: Record<string, unknown>,
  type: string,
  defaults: Record<string, unknown>,
  rows: { stakes: ReadonlyMap<bigint, bigint>; versions: ReadonlyMap<bigint, SimEntityVersion[]> },
): void {
  if (isHistoryRow(item)) return;
  const alias = item.alias;
  const id = rowId(item);
  const pending = rows.stakes.get(id);
  store.addEntity({
    id,
    alias: typeof alias === 'string' ? alias : bytesInput(alias),
    evmAddress: bytesInput(item.evm_address),
    deleted: boolInput(item.deleted, false),
    type: typeof item.type === 'string' ? item.type : type,
    details: {
      ...accountDetails(item, defaults),
      ...(pending === undefined ? {} : { pending_reward: pending }),
    },
    since: rows.versions.get(id)?.[0]?.since ?? 0n,
    versions: (rows.versions.get(id) ?? []).map((v) =>
      pending === undefined ? v : { ...v, details: { ...v.details, pending_reward: pending } },
    ),
  });
}

function addRewards(store: SimulatorStore, rows: Record<string, unknown>[]): Map<bigint, TransferInput[]> {
  const byTimestamp = new Map<bigint, TransferInput[]>();
  for (const item of rows) {
    const accountId = entityInput(item.account_id) ?? 1001n;
    const amount = intInput(item.amount, 100n);
    const timestamp = intInput(item.consensus_timestamp, 0n);
    store.addReward({ accountId, amount, timestamp });
    const list = byTimestamp.get(timestamp) ?? [];
    list.push({ account: accountId, amount });
    byTimestamp.set(timestamp, list);
  }
  return byTimestamp;
}

function addContractResult(store: SimulatorStore, item: Record<string, unknown>): void {
  store.addContractTransactionHash(bytesInput(item.transaction_hash) ?? DEFAULT_CONTRACT_HASH, {
    consensusTimestamp: intInput(item.consensus_timestamp, 1234510001n),
    payer: entityInput(item.payer_account_id) ?? 102n,
  });
}

function addAction(store: SimulatorStore, item: Record<string, unknown>): void {
  const callOperationType = nullableInt(
    item.call_operation_type === undefined ? 1 : item.call_operation_type,
  );
  store.addContractActions([
    makeSimContractAction({
      consensusTimestamp: intInput(item.consensus_timestamp, 1234510001n),
      payer: entityInput(item.payer_account_id) ?? 102n,
      index: Number(intInput(item.index, 1n)),
      callDepth: Number(intInput(item.call_depth, 1n)),
      callType: Number(intInput(item.call_type, 1n)),
      callOperationType: callOperationType === null ? null : Number(callOperationType),
      caller: entityInput(item.caller) ?? 8001n,
      callerType: typeof item.caller_type === 'string' ? item.caller_type : 'CONTRACT',
      gas: intInput(item.gas, 10000n),
      gasUsed: intInput(item.gas_used, 5000n),
      input: bytesInput(item.input),
      recipientAccount: entityInput(item.recipient_account),
      recipientAddress: bytesInput(item.recipient_address),
      recipientContract: entityInput(item.recipient_contract),
      resultData: bytesInput(item.result_data),
      resultDataType: Number(intInput(item.result_data_type, 11n)),
      value: intInput(item.value, 100n),
    }),
  ]);
}

/** The row's high_volume columns with the spec defaults (false, 1). */
function highVolumeInput(item: Record<string, unknown>): HighVolume {
  const multiplier = item.high_volume_pricing_multiplier;
  return {
    highVolume: boolInput(item.high_volume, false),
    multiplier: multiplier === undefined ? 1n : nullableInt(multiplier),
  };
}

/** The encoded id of an entity row (shard, realm, num). */
function rowId(item: Record<string, unknown>): bigint {
  return (intInput(item.shard, 0n) << 54n) | (intInput(item.realm, 0n) << 38n) | intInput(item.num, 0n);
}
