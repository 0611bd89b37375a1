// The record schemas agree with the service's OpenAPI document: same fields, compatible kinds, nullability.
// Deliberate differences are listed in EXCEPTIONS, each with why (docs/ledger-client.md).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { sharedPath } from './shared-path.js';
import * as S from '@ledger-sentinel/ledger-model/schema';

type OpenApiSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
};

const doc = parse(readFileSync(sharedPath('ledger-api', 'openapi.yml'), 'utf8')) as {
  components: { schemas: Record<string, OpenApiSchema> };
};
const components = doc.components.schemas;

function deref(s: OpenApiSchema): { name?: string; schema: OpenApiSchema } {
  if (s.$ref === undefined) return { schema: s };
  const name = s.$ref.split('/').pop() as string;
  return { name, schema: deref(components[name] as OpenApiSchema).schema };
}

/** What the document promises for one property. */
function openApiKind(s: OpenApiSchema): string {
  const { name, schema } = deref(s);
  if (name === 'EntityId') return 'entity-id';
  if (name === 'Timestamp' || name === 'TimestampNullable') return 'timestamp';
  if (name?.startsWith('EvmAddress')) return 'evm-address';
  if (schema.type === 'integer') return schema.format === 'int64' ? 'int64' : 'integer';
  return schema.type ?? 'object';
}

type Zod = z.ZodType & {
  def: { type: string; innerType?: Zod; element?: Zod; options?: Zod[] };
  expected?: Zod;
};

function unwrap(s: Zod): Zod {
  const t = s.def.type;
  if (t === 'pipe' && s.expected) return unwrap(s.expected); // a lenient field: its expected shape
  return t === 'optional' || t === 'nullable' || t === 'default' ? unwrap(s.def.innerType as Zod) : s;
}

const NAMED = new Map<unknown, string>([
  [S.EntityId, 'entity-id'],
  [S.Timestamp, 'timestamp'],
  [S.Int64, 'int64'],
  [S.Hex, 'hex'],
  [S.EvmAddress, 'evm-address'],
]);

function zodKind(s: Zod): string {
  const inner = unwrap(s);
  const named = NAMED.get(inner);
  if (named !== undefined) return named;
  const t = inner.def.type;
  return t === 'number' ? 'integer' : t;
}

// [object path, field] → [openapi kind, our kind]: known, documented differences (docs/ledger-client.md).
const EXCEPTIONS: Record<string, [string, string]> = {
  'Transaction.batch_key': ['object', 'union'], // a Key object (newer services) or 0x-hex (older ones), or null
  'Transaction.max_fee': ['string', 'int64'], // a digit string; we keep it as an exact integer
  'Transaction.valid_duration_seconds': ['string', 'int64'],
  'Transaction.name': ['string', 'string'],
  'Transaction.transaction_id': ['string', 'string'],
  'ContractAction.from': ['string', 'evm-address'],
  'StakingRewardTransfer.account': ['entity-id', 'union'], // the interface spec says an integer account number
};
const STRINGY = new Set(['string', 'hex', 'evm-address']);

function compare(path: string, api: OpenApiSchema, ours: z.ZodObject): string[] {
  const props = deref(api).schema.properties ?? {};
  const problems: string[] = [];
  const apiKeys = Object.keys(props).sort();
  const ourKeys = Object.keys(ours.shape).sort();
  if (apiKeys.join() !== ourKeys.join()) problems.push(`${path}: fields ${ourKeys} vs openapi ${apiKeys}`);
  for (const key of apiKeys.filter((k) => k in ours.shape)) {
    const field = ours.shape[key] as unknown as Zod;
    const want = openApiKind(props[key] as OpenApiSchema);
    const got = zodKind(field);
    const exception = EXCEPTIONS[`${path}.${key}`];
    const ok = exception
      ? exception[0] === want && exception[1] === got
      : want === got || (want === 'string' && STRINGY.has(got));
    if (!ok) problems.push(`${path}.${key}: ours ${got}, openapi ${want}`);
    if (props[key]?.nullable === true && !field.safeParse(null).success)
      problems.push(`${path}.${key}: not nullable`);
  }
  return problems;
}

function itemsOf(name: string, field: string): OpenApiSchema {
  const prop = (deref(components[name] as OpenApiSchema).schema.properties ?? {})[field] as OpenApiSchema;
  return deref(deref(prop).schema.items as OpenApiSchema).schema;
}

function element(schema: z.ZodObject, field: string): z.ZodObject {
  return unwrap(schema.shape[field] as unknown as Zod).def.element as unknown as z.ZodObject;
}

describe('schemas agree with openapi.yml', () => {
  it.each([
    ['Transaction', components.Transaction, S.Transaction],
    ['StakingReward', components.StakingReward, S.StakingReward],
    ['ContractAction', components.ContractAction, S.ContractAction],
    ['Links', components.Links, S.Links],
    ['Transfer', itemsOf('Transaction', 'transfers'), element(S.Transaction, 'transfers')],
    ['TokenTransfer', itemsOf('Transaction', 'token_transfers'), element(S.Transaction, 'token_transfers')],
    ['NftTransfer', itemsOf('Transaction', 'nft_transfers'), element(S.Transaction, 'nft_transfers')],
    ['StakingRewardTransfer', components.StakingRewardTransfer, S.StakingRewardTransfer],
    ['MaxCustomFee', components.CustomFeeLimit, S.MaxCustomFee],
    ['ErrorMessage', components.Error, S.ErrorBody],
  ] as const)('%s', (name, api, ours) => {
    const problems =
      name === 'ErrorMessage' ? compareError() : compare(name, api as OpenApiSchema, ours as z.ZodObject);

    expect(problems).toEqual([]);
  });
});

function compareError(): string[] {
  const status = deref(components.Error as OpenApiSchema).schema.properties?._status as OpenApiSchema;
  const messages = status.properties?.messages as OpenApiSchema;
  const ours = element(S.ErrorBody.shape._status, 'messages');
  return compare('ErrorMessage', messages.items as OpenApiSchema, ours);
}

describe('the agreement check', () => {
  it('reports a field the document adds and a kind it changes', () => {
    const props = { ...deref(components.StakingReward as OpenApiSchema).schema.properties };
    const drifted = { properties: { ...props, fee: { type: 'integer' }, amount: { type: 'string' } } };

    const problems = compare('StakingReward', drifted, S.StakingReward);

    expect(problems).toEqual([
      expect.stringContaining('StakingReward: fields'),
      'StakingReward.amount: ours int64, openapi string',
    ]);
  });
});
