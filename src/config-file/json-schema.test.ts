import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  CONFIG_SCHEMA_PATH,
  configJsonSchema,
  valuesConfigSchema,
  VALUES_SCHEMA_PATH,
} from './json-schema.js';
import { REPO_DIR } from '../../test/helpers/shared.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const read = (path: string): Record<string, any> => JSON.parse(readFileSync(path, 'utf8')); // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON

describe('config.schema.json and the Helm chart', () => {
  it('config.schema.json matches the zod schema (if not: npm run config:schema, then commit it)', () => {
    expect(read(CONFIG_SCHEMA_PATH), 'config.schema.json is stale: run npm run config:schema').toEqual(
      configJsonSchema(),
    );
  });

  it("values.schema.json checks the chart's config: block with it (if not: npm run config:schema)", () => {
    expect(read(VALUES_SCHEMA_PATH).properties.config, 'run npm run config:schema').toEqual(
      valuesConfigSchema(),
    );
  });
});

describe('config.schema.json', () => {
  const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(configJsonSchema());
  const example = parse(readFileSync(join(REPO_DIR, 'config.example.yaml'), 'utf8')) as Record<
    string,
    unknown
  >;
  const errors = () => (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('\n');

  it('accepts config.example.yaml, *_file secrets included', () => {
    const ok = validate(example);

    expect(errors()).toBe('');
    expect(ok).toBe(true);
  });

  it('leaves values holding ${VAR} to the loader, which expands them first', () => {
    const ok = validate({
      ...example,
      tail: { poll_interval: '${POLL_INTERVAL}' },
      ledger: { base_url: '${URL}' },
    });

    expect(errors()).toBe('');
    expect(ok).toBe(true);
  });

  it.each([
    [
      'a base URL that is not http(s)',
      { ledger: { base_url: 'ftp://x' } },
      '/ledger/base_url must match pattern',
    ],
    [
      'a duration that is not one',
      { tail: { poll_interval: 'soon' } },
      '/tail/poll_interval must match pattern',
    ],
    [
      'an unknown notifier kind',
      { notifiers: { ops: { kind: 'slak' } } },
      'must match exactly one schema in oneOf',
    ],
    ['a misspelt key', { tail: { pol_interval: '2s' } }, 'must NOT have additional properties'],
    [
      'a required secret given neither way',
      { notifiers: { ops: { kind: 'slack' } } },
      "must have required property 'webhook_url_file'",
    ],
    [
      'an optional secret given both ways',
      { verification: { url: 'https://sourcify.dev/server', api_key: 'k', api_key_file: '/k' } },
      '/verification must NOT be valid',
    ],
    [
      'ha on the SQLite state',
      { ha: { enabled: true }, state: { dir: '/data', backend: 'sqlite' } },
      '/state/backend must be equal to constant',
    ],
  ])('rejects %s, as the daemon does', (_label, override, message) => {
    const ok = validate({ ...example, ...override });

    expect(ok).toBe(false);
    expect(errors()).toContain(message);
  });
});
