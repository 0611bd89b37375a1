import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { JSON_SCHEMA_PATH, ruleFileJsonSchema } from './json-schema.js';

describe('rules/rules.schema.json', () => {
  it('matches the zod schema (if not: npm run rules:schema, then commit rules/rules.schema.json)', () => {
    const committed: unknown = JSON.parse(readFileSync(JSON_SCHEMA_PATH, 'utf8'));

    const generated = ruleFileJsonSchema();

    expect(committed, 'rules/rules.schema.json is stale: run npm run rules:schema').toEqual(generated);
  });
});

describe('rules/*.yaml against the JSON Schema', () => {
  const dir = dirname(JSON_SCHEMA_PATH);
  const examples = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  const validate = new Ajv2020({ strict: false }).compile(ruleFileJsonSchema());

  it.each(examples)('%s points editors at the schema and validates', (name) => {
    const text = readFileSync(join(dir, name), 'utf8');

    const valid = validate(parse(text));

    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./rules.schema.json');
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('rejects a typo, as the loader does', () => {
    const valid = validate({ rules: [{ id: 'x', summary: 's', when: { debt: '1 hbar' } }] });

    expect(valid).toBe(false);
  });

  it.each([
    [{ debit: 1000 }, false],
    [{ debit: '1000' }, false],
    [{ debit: '1_000 HBAR' }, true],
    [{ token_debit: { token_id: '0.0.5', min: 1000 } }, false],
    [{ token_debit: { token_id: '0.0.5', min: '1000 units' } }, true],
  ])('checks that %j carries its unit, as the loader does', (when, expected) => {
    expect(validate({ rules: [{ id: 'x', summary: 's', when }] })).toBe(expected);
  });
});
