// The type table against the current line's OpenAPI document: every name its `TransactionTypes` enum lists is a
// type the daemon knows (so a rule or a `transactiontype=` filter on it is valid), with the code the service uses.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  QUERYABLE_TRANSACTION_TYPES,
  TRANSACTION_TYPE_NAMES,
} from '@ledger-sentinel/ledger-model/transaction-types';
import { sharedPath } from './shared-path.js';

describe('transaction types of the current line (0.160)', () => {
  const document = parse(readFileSync(sharedPath('ledger-api', 'current', 'openapi.yml'), 'utf8')) as {
    components: { schemas: { TransactionTypes: { enum: string[] } } };
  };
  const listed = document.components.schemas.TransactionTypes.enum;

  it('lists a type enum to compare with', () => {
    expect(listed.length).toBeGreaterThan(60);
  });

  it('every type the OpenAPI document lists is known and filterable', () => {
    expect(listed.filter((name) => !QUERYABLE_TRANSACTION_TYPES.has(name))).toEqual([]);
  });

  it('the names are unique per code', () => {
    const names = [...TRANSACTION_TYPE_NAMES.values()];
    expect(new Set(names).size).toBe(names.length);
  });
});
