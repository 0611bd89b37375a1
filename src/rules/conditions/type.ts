import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { serviceName, unknownNames, type ServiceNames } from './shared/service-name.js';
import { TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';

const TYPES: ServiceNames = {
  what: 'transaction type',
  known: new Set(TRANSACTION_TYPES),
  examples: 'CRYPTOTRANSFER or CONTRACTCALL',
};
const TypeName = serviceName(TYPES);

/** The record's transaction type (`name`) is one of the listed names (an unknown one is a warning). */
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
  warnings: (value: string[]) => unknownNames(value, TYPES),
});
