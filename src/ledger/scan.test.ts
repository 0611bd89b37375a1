import { describe, expect, it } from 'vitest';
import { ENTITY_ID_PATTERN } from '@ledger-sentinel/ledger-model/entity-id';
import { INT64_TEXT_PATTERN } from '@ledger-sentinel/ledger-model/schema';
import { int64FromText, isEntityIdText, isRecordTimestampText } from './scan.js';
import { RECORD_TIMESTAMP_PATTERN } from '@ledger-sentinel/ledger-model/timestamp';

const SAMPLES = [
  '',
  '0',
  '0.0.1',
  '0.0.1234',
  '1.2.3.4',
  '0..1',
  '.0.1',
  '0.0.',
  '0.0.1 ',
  ' 0.0.1',
  '00000000000.0.1',
  '0000000000.0000000000.0000000000',
  '0.0.12345678901',
  '1',
  '1.5',
  '1.',
  '.5',
  '1.123456789',
  '1.1234567890',
  '1565779444.711927005',
  '1234567890123456789',
  '12345678901234567890',
  '1e5',
  '-1',
  '-12',
  '--1',
  '-',
  '9223372036854775807',
  '-9223372036854775808',
  '123456789012345',
  '1234567890123456',
  '0x10',
  '١٢٣',
];

describe('scanners agree with their regexes', () => {
  it.each(SAMPLES)('%j', (s) => {
    expect(isEntityIdText(s)).toBe(ENTITY_ID_PATTERN.test(s));
    expect(isRecordTimestampText(s)).toBe(RECORD_TIMESTAMP_PATTERN.test(s));
    expect(int64FromText(s)).toBe(INT64_TEXT_PATTERN.test(s) ? BigInt(s) : undefined);
  });
});
