// Builds /actions items from contract_action rows (docs/ledger-api.md §F2.7).
import { decodeEntityId, longZeroAddress } from '@ledger-sentinel/ledger-model/entity-id';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { SimContractAction } from './store.js';
import { idText } from './transaction-json.js';

export interface ContractActionRowInput {
  readonly consensusTimestamp: bigint;
  readonly payer: bigint;
  readonly index: number;
  readonly callDepth: number;
  readonly callType: number;
  readonly callOperationType: number | null;
  readonly caller: bigint;
  readonly callerType: string;
  readonly gas: bigint;
  readonly gasUsed: bigint;
  readonly input: Uint8Array | null;
  readonly recipientAccount: bigint | null;
  readonly recipientAddress: Uint8Array | null;
  readonly recipientContract: bigint | null;
  readonly resultData: Uint8Array | null;
  readonly resultDataType: number;
  readonly value: bigint;
  readonly visibleAt?: bigint;
}

const CALL_TYPES = ['NO_ACTION', 'CALL', 'CREATE', 'PRECOMPILE', 'SYSTEM'];
const CALL_OPERATION_TYPES = [
  'UNKNOWN',
  'CALL',
  'CALLCODE',
  'DELEGATECALL',
  'STATICCALL',
  'CREATE',
  'CREATE2',
];
const RESULT_DATA_TYPES = new Map([
  [11, 'OUTPUT'],
  [12, 'REVERT_REASON'],
  [13, 'ERROR'],
]);

export function makeSimContractAction(row: ContractActionRowInput): SimContractAction {
  const recipientId = row.recipientAccount ?? row.recipientContract;
  const recipientType =
    row.recipientAccount !== null ? 'ACCOUNT' : row.recipientContract !== null ? 'CONTRACT' : null;
  const json = {
    call_depth: row.callDepth,
    call_operation_type: CALL_OPERATION_TYPES[row.callOperationType ?? 0] ?? 'UNKNOWN',
    call_type: CALL_TYPES[row.callType] ?? 'NO_ACTION',
    caller: row.caller === 0n ? null : idText(row.caller),
    caller_type: row.callerType,
    from: row.caller === 0n ? null : longZeroAddress(decodeEntityId(row.caller)),
    gas: row.gas,
    gas_used: row.gasUsed,
    index: row.index,
    input: hex(row.input),
    recipient: recipientId === null ? null : idText(recipientId),
    recipient_type: recipientType,
    result_data: hex(row.resultData),
    result_data_type: RESULT_DATA_TYPES.get(row.resultDataType) ?? 'OUTPUT',
    timestamp: formatTimestamp(row.consensusTimestamp),
    to: to(row.recipientAddress, recipientId),
    value: row.value,
  };
  return {
    consensusTimestamp: row.consensusTimestamp,
    payer: row.payer,
    index: row.index,
    json,
    ...(row.visibleAt === undefined ? {} : { visibleAt: row.visibleAt }),
  };
}

function to(address: Uint8Array | null, recipientId: bigint | null): string | null {
  if (address !== null && address.length > 0)
    return `0x${Buffer.from(address).toString('hex').padStart(40, '0')}`;
  return recipientId === null ? null : longZeroAddress(decodeEntityId(recipientId));
}

function hex(bytes: Uint8Array | null): string {
  return bytes === null || bytes.length === 0 ? '0x' : `0x${Buffer.from(bytes).toString('hex')}`;
}
