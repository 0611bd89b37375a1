// Contract call traces: a tree of actions, written depth-first (index order), as /actions returns them
// (docs/ledger-api.md §14). Operations mix CALL, DELEGATECALL, STATICCALL, CALLCODE, CREATE and CREATE2; a reverted frame
// returns an Error(string) revert reason. Deep traces (depth 10+) come from a single long chain.
import type { SimContractAction } from './store.js';
import type { Rng } from './rng.js';
import { formatNs } from './traffic-record.js';
import { longZeroHex, type SimContract } from './traffic-population.js';

export interface TraceOptions {
  readonly consensusNs: bigint;
  readonly payer: number;
  /** The called (or created) contract at depth 0. */
  readonly target: SimContract;
  readonly create: boolean;
  /** The whole transaction reverted: the root frame returns a revert reason. */
  readonly reverted: boolean;
  /** Deepest call_depth to reach (0 = only the root). */
  readonly maxDepth: number;
  /** Picks the contract a nested call goes to. */
  readonly pickContract: () => SimContract;
  /** A fresh contract for a nested CREATE/CREATE2. */
  readonly newContract: () => SimContract;
}

const MAX_ACTIONS = 64;
const SELECTORS = ['a9059cbb', '23b872dd', '095ea7b3', '70a08231', 'd0e30db0', '3ccfd60b', '40c10f19'];
const NESTED_OPS = [
  'CALL',
  'CALL',
  'CALL',
  'DELEGATECALL',
  'STATICCALL',
  'CREATE2',
  'CREATE',
  'CALLCODE',
] as const;

/** ABI encoding of Error(string), the usual revert payload. */
export function revertReason(message: string): string {
  const text = Buffer.from(message, 'utf8');
  const padded = Buffer.alloc(Math.ceil(text.length / 32) * 32);
  text.copy(padded);
  const word = (n: number) => n.toString(16).padStart(64, '0');
  return `0x08c379a0${word(32)}${word(text.length)}${padded.toString('hex')}`;
}

interface Frame {
  readonly depth: number;
  readonly op: string;
  readonly caller: number;
  readonly callerType: 'ACCOUNT' | 'CONTRACT';
  readonly target: SimContract;
  readonly gas: number;
  readonly reverted: boolean;
}

export function buildTrace(rng: Rng, options: TraceOptions): SimContractAction[] {
  const actions: SimContractAction[] = [];
  const timestamp = formatNs(options.consensusNs);
  const payer = BigInt(options.payer);
  const root: Frame = {
    depth: 0,
    op: options.create ? 'CREATE' : 'CALL',
    caller: options.payer,
    callerType: 'ACCOUNT',
    target: options.target,
    gas: rng.between(200_000, 3_000_000),
    reverted: options.reverted,
  };
  const visit = (frame: Frame, chain: boolean): void => {
    if (actions.length >= MAX_ACTIONS) return;
    actions.push({
      consensusTimestamp: options.consensusNs,
      payer,
      index: actions.length,
      json: actionJson(rng, frame, actions.length, timestamp),
    });
    if (frame.depth >= options.maxDepth) return;
    const extra = frame.depth === 0 ? rng.between(0, 3) : rng.between(0, 1);
    const children = chain ? 1 + (frame.depth === 0 ? extra : 0) : extra;
    for (let i = 0; i < children; i++) {
      const op = rng.pick(NESTED_OPS);
      const creates = op === 'CREATE' || op === 'CREATE2';
      const child: Frame = {
        depth: frame.depth + 1,
        op,
        caller: frame.target.num,
        callerType: 'CONTRACT',
        target: creates ? options.newContract() : options.pickContract(),
        gas: Math.floor((frame.gas * 63) / 64) - rng.between(100, 5000),
        reverted: frame.reverted || rng.chance(0.05),
      };
      visit(child, chain && i === 0);
    }
  };
  visit(root, options.maxDepth >= 4);
  return actions;
}

function actionJson(rng: Rng, frame: Frame, index: number, timestamp: string): Record<string, unknown> {
  const creates = frame.op === 'CREATE' || frame.op === 'CREATE2';
  const precompile = !creates && rng.chance(0.05);
  const recipientNum = precompile ? 359 : frame.target.num;
  const input = creates
    ? `0x6080604052${rng.bytes(16).toString('hex')}`
    : `0x${rng.pick(SELECTORS)}${rng.bytes(32).toString('hex')}`;
  const resultData = frame.reverted
    ? revertReason(rng.pick(['insufficient balance', 'not owner', 'paused', 'slippage too high']))
    : creates
      ? `0x${rng.bytes(24).toString('hex')}`
      : rng.chance(0.5)
        ? `0x${rng.bytes(32).toString('hex')}`
        : '0x';
  return {
    call_depth: frame.depth,
    call_operation_type: frame.op,
    call_type: creates ? 'CREATE' : precompile ? 'PRECOMPILE' : 'CALL',
    caller: `0.0.${frame.caller}`,
    caller_type: frame.callerType,
    from: `0x${longZeroHex(frame.caller)}`,
    gas: frame.gas,
    gas_used: Math.floor(frame.gas * (0.1 + rng.next() * 0.8)),
    index,
    input,
    recipient: `0.0.${recipientNum}`,
    recipient_type: 'CONTRACT',
    result_data: resultData,
    result_data_type: frame.reverted ? 'REVERT_REASON' : 'OUTPUT',
    timestamp,
    to: `0x${precompile ? longZeroHex(359) : frame.target.evmAddress}`,
    value: frame.op === 'CALL' && rng.chance(0.2) ? rng.between(1, 1_000_000) : 0,
  };
}
