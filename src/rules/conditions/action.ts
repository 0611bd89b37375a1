import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { HbarAmount } from '../facts/values.js';
import { ENTITY_ID_PATTERN } from '@ledger-sentinel/ledger-model/entity-id';
import type { ContractAction } from '@ledger-sentinel/ledger-model/schema';

const NAME = /^[A-Z][A-Z0-9_]*$/;
const Name = z.string().regex(NAME, {
  error: (i) => `expected an upper-case name like DELEGATECALL, got ${JSON.stringify(i.input)}`,
});
const Names = z.array(Name).min(1);
const Target = z.string().refine((s) => ENTITY_ID_PATTERN.test(s) || /^0x[0-9a-fA-F]{40}$/.test(s), {
  error: (i) => `expected an entity id like 0.0.1234 or a 0x EVM address, got ${JSON.stringify(i.input)}`,
});
const Targets = z.array(Target).min(1);

const Action = z
  .object({
    call_type: Names.optional(),
    call_operation_type: Names.optional(),
    recipient_in: Targets.optional(),
    recipient_not_in: Targets.optional(),
    min_value: HbarAmount.optional(),
    reverted: z.boolean().optional(),
  })
  .strict()
  .refine((a) => Object.keys(a).length > 0, {
    error:
      'set at least one of call_type, call_operation_type, recipient_in, recipient_not_in, min_value, reverted',
  });
type Action = z.output<typeof Action>;

/** Reverted: the action's result is a revert reason or an error (`result_data_type` REVERT_REASON / ERROR). */
export function isReverted(a: ContractAction): boolean {
  return a.result_data_type === 'REVERT_REASON' || a.result_data_type === 'ERROR';
}

function targetIn(a: ContractAction, list: ReadonlySet<string>): boolean {
  return (a.recipient !== null && list.has(a.recipient)) || (a.to !== null && list.has(a.to.toLowerCase()));
}

function actionPredicate(value: Action): (a: ContractAction) => boolean {
  const lower = (l: string[] | undefined) => l && new Set(l.map((s) => s.toLowerCase()));
  const callTypes = value.call_type && new Set(value.call_type);
  const ops = value.call_operation_type && new Set(value.call_operation_type);
  const allowed = lower(value.recipient_in);
  const denied = lower(value.recipient_not_in);
  return (a) =>
    (!callTypes || callTypes.has(a.call_type)) &&
    (!ops || ops.has(a.call_operation_type)) &&
    (!allowed || targetIn(a, allowed)) &&
    (!denied || !targetIn(a, denied)) &&
    (value.min_value === undefined || a.value >= value.min_value) &&
    (value.reverted === undefined || isReverted(a) === value.reverted);
}

/** Some action of the call trace matches every given field. Needs the trace (fetched on demand). */
export const action = defineCondition({
  name: 'action',
  sources: ['transactions'],
  needsTrace: true,
  doc: 'Some contract action matches all given fields: `call_type`, `call_operation_type` (lists), `recipient_in` / `recipient_not_in` (ids or 0x addresses), `min_value`, `reverted`.',
  example: '{ call_operation_type: [DELEGATECALL], recipient_not_in: [0.0.5005] }',
  schema: () => Action,
  compile: (value: Action) => {
    const matches = actionPredicate(value);
    return (f) => (f.traces === undefined ? undefined : f.traces.some(matches));
  },
  explain: (value: Action, f) => {
    const hit = (f.traces ?? []).find(actionPredicate(value));
    if (!hit) return 'a contract action matched';
    const to = hit.recipient ?? hit.to ?? '?';
    return `contract action ${hit.call_type} ${hit.call_operation_type} to ${to} (depth ${hit.call_depth})`;
  },
});
