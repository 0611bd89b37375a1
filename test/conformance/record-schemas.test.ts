// Every response in ../shared/ledger-api/specs (tests[] and top-level cases): 200s parse with the record
// schemas without an invalid record, errors parse as the error body.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedPath } from './shared-path.js';
import { fastContractAction, fastStakingReward, fastTransaction } from '../../src/ledger/fast-records.js';
import { parseJson } from '../../src/ledger/json.js';
import { parsePage, type Endpoint } from '../../src/ledger/page.js';
import { ContractAction, ErrorBody, StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';

interface SpecCase {
  readonly name: string;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function loadCases(): SpecCase[] {
  const root = sharedPath('ledger-api', 'specs');
  return walk(root)
    .filter((file) => /\.(json|spec)$/.test(file) && !file.endsWith('responseHeaders.json'))
    .flatMap((file) => {
      // Parsed int64-exactly: the fixtures hold amounts such as 9223372036847275807.
      const doc = parseJson(readFileSync(file, 'utf8')) as { tests?: unknown[] } & Record<string, unknown>;
      const tests = (doc.tests ?? [doc]) as Record<string, unknown>[];
      return tests.map((test, i) => ({
        name: `${relative(root, file)}#${i}`,
        status: Number(test.responseStatus),
        body: test.responseJson as Record<string, unknown>,
      }));
    });
}

const CASES = loadCases();
const ENDPOINTS: readonly Endpoint[] = ['transactions', 'rewards', 'actions'];
const SCHEMAS = { transactions: Transaction, rewards: StakingReward, actions: ContractAction };
const FAST = { transactions: fastTransaction, rewards: fastStakingReward, actions: fastContractAction };

function endpointOf(body: Record<string, unknown>): Endpoint {
  const found = ENDPOINTS.find((e) => Array.isArray(body[e]));
  if (found === undefined) throw new Error(`no record array in ${Object.keys(body).join(',')}`);
  return found;
}

describe('upstream spec responses', () => {
  it('covers every spec file', () => {
    expect(CASES.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(35);
    expect(CASES.filter((c) => c.status !== 200).length).toBeGreaterThanOrEqual(6);
  });

  it.each(CASES.filter((c) => c.status === 200))('$name parses with no invalid record', ({ body }) => {
    const endpoint = endpointOf(body);

    const page = parsePage(endpoint, '/api/v1/x', body);

    expect(page.invalid).toEqual([]);
    expect(page.records).toHaveLength((body[endpoint] as unknown[]).length);
  });

  it.each(CASES.filter((c) => c.status === 200))('$name: the fast path agrees with zod', ({ body }) => {
    const endpoint = endpointOf(body);
    const items = body[endpoint] as unknown[];

    const fast = items.map((item) => FAST[endpoint](item));

    expect(fast).toEqual(items.map((item) => SCHEMAS[endpoint].parse(item)));
  });

  it.each(CASES.filter((c) => c.status !== 200))('$name ($status) parses as an error body', ({ body }) => {
    const parsed = ErrorBody.safeParse(body);

    expect(parsed.success).toBe(true);
    expect(parsed.data?._status.messages.length).toBeGreaterThan(0);
  });

  it('keeps int64 amounts above 2^53 exact', () => {
    const amounts = CASES.flatMap(({ status, body }) =>
      status === 200 && Array.isArray(body.transactions)
        ? parsePage('transactions', '/x', body).records.flatMap((t) => t.transfers.map((x) => x.amount))
        : [],
    );

    expect(amounts.some((a) => a > 2n ** 53n || a < -(2n ** 53n))).toBe(true);
    expect(amounts).toContain(9223372036847275807n);
  });
});
