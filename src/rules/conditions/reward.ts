import { hbarText } from '../facts/amount-text.js';
import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { HbarAmount } from '../facts/values.js';

const Reward = z
  .object({ min: HbarAmount.optional(), max: HbarAmount.optional() })
  .strict()
  .refine((r) => r.min !== undefined || r.max !== undefined, { error: 'set min, max or both' });
type Reward = z.output<typeof Reward>;

/** A staking reward payout of at least `min` and / or at most `max`. */
export const reward = defineCondition({
  name: 'reward',
  sources: ['rewards'],
  needsTrace: false,
  doc: 'The staking reward paid is at least `min` and / or at most `max`.',
  example: '{ min: "1 hbar" }',
  schema: () => Reward,
  compile: (value: Reward) => (f) => {
    const amount = f.reward?.amount;
    if (amount === undefined) return false;
    return (
      (value.min === undefined || amount >= value.min) && (value.max === undefined || amount <= value.max)
    );
  },
  explain: (value: Reward, f) => {
    const amount = hbarText(f.reward?.amount ?? 0n);
    const min = value.min === undefined ? '' : ` ≥ ${hbarText(value.min)}`;
    const max = value.max === undefined ? '' : ` ≤ ${hbarText(value.max)}`;
    return `staking reward ${amount}${min}${max}`;
  },
});
