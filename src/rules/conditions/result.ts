import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { serviceName, unknownNames, type ServiceNames } from './shared/service-name.js';
import { RESULT_NAMES, SUCCESS_RESULTS } from '@ledger-sentinel/ledger-model/result-codes';

const RESULTS: ServiceNames = {
  what: 'result name',
  known: RESULT_NAMES,
  examples: 'SUCCESS or INSUFFICIENT_PAYER_BALANCE',
};
const ResultName = serviceName(RESULTS);

/** `success` / `fail` as the service's `result=` filter defines them (fail = not in SUCCESS_RESULTS), or names. */
export const result = defineCondition({
  name: 'result',
  sources: ['transactions'],
  needsTrace: false,
  doc: '`success`, `fail` (any result outside SUCCESS, FEE_SCHEDULE_FILE_PART_UPLOADED, SUCCESS_BUT_MISSING_EXPECTED_OPERATION) or a list of result names.',
  example: 'fail',
  schema: () =>
    z.union([z.enum(['success', 'fail']), z.array(ResultName).min(1)], {
      error: (i) => `expected success, fail or a list of result names, got ${JSON.stringify(i.input)}`,
    }),
  compile: (value) => {
    if (value === 'success') return (f) => SUCCESS_RESULTS.has(f.tx?.result ?? '');
    if (value === 'fail') return (f) => f.tx !== undefined && !SUCCESS_RESULTS.has(f.tx.result);
    const names = new Set(value);
    return (f) => names.has(f.tx?.result ?? '');
  },
  explain: (value, f) => {
    const got = f.tx?.result ?? '';
    if (value === 'success') return `result ${got} (a success)`;
    if (value === 'fail') return `result ${got} (a failure)`;
    return `result ${got} in the list`;
  },
  warnings: (value) => (typeof value === 'string' ? [] : unknownNames(value, RESULTS)),
});
