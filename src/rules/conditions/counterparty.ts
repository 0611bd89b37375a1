import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { AccountIdList } from '../facts/values.js';

const Counterparty = z
  .object({ in: AccountIdList.optional(), not_in: AccountIdList.optional() })
  .strict()
  .refine((c) => (c.in === undefined) !== (c.not_in === undefined), {
    error: 'set exactly one of in or not_in',
  });
type Counterparty = z.output<typeof Counterparty>;

/**
 * HBAR left the watched account and was credited to an account in (`in`) / not in (`not_in`, an allowlist) the
 * list. Credits to the fee collectors (the record's node, 0.0.98, 0.0.800, 0.0.801, 0.0.802) are not counterparties.
 */
export const counterparty = defineCondition({
  name: 'counterparty',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'HBAR left the watched account for an account in / not in the list (fee legs to the node, 0.0.98, 0.0.800, 0.0.801 and 0.0.802 are ignored).',
  example: '{ not_in: [0.0.1001, 0.0.1002] }',
  schema: () => Counterparty,
  compile: (value: Counterparty) => {
    const list = new Set(value.in ?? value.not_in);
    const wanted = value.in !== undefined;
    return (f) => {
      if (f.net() >= 0n) return false;
      for (const id of f.counterparties()) if (list.has(id) === wanted) return true;
      return false;
    };
  },
  explain: (value: Counterparty, f) => {
    const list = new Set(value.in ?? value.not_in);
    const hits = f.counterparties().filter((id) => list.has(id) === (value.in !== undefined));
    return `HBAR sent to ${hits.slice(0, 5).join(', ')}${hits.length > 5 ? ` (+${hits.length - 5})` : ''} ${value.in ? 'in' : 'not in'} the list`;
  },
});
