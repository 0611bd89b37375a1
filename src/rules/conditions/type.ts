import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { suggest } from './shared/suggest.js';
import { TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';

const KNOWN = new Set(TRANSACTION_TYPES);
const TypeName = z.string().refine((name) => KNOWN.has(name), {
  error: (i) =>
    `unknown transaction type ${JSON.stringify(i.input)}; ${suggest(String(i.input), TRANSACTION_TYPES, 'CRYPTOTRANSFER or CONTRACTCALL')}`,
});

/** The record's transaction type (`name`) is one of the listed names. */
export const type = defineCondition({
  name: 'type',
  sources: ['transactions'],
  needsTrace: false,
  doc: "The transaction type is one of the listed names (the service's `transactiontype` values).",
  example: '[CRYPTOUPDATEACCOUNT, CRYPTODELETE]',
  schema: () =>
    z
      .array(TypeName, {
        error: (i) =>
          `expected a list of transaction type names like [CRYPTOTRANSFER], got ${JSON.stringify(i.input)}`,
      })
      .min(1),
  compile: (value: string[]) => {
    const names = new Set(value);
    return (f) => names.has(f.tx?.name ?? '');
  },
  explain: (_value: string[], f) => `type ${f.tx?.name ?? ''}`,
});
