// config.schema.json, generated from the zod schema: editors check config files with it
// (`# yaml-language-server: $schema=…`), and the Helm chart's values.schema.json checks its `config:` block with
// it. json-schema.test.ts fails when either committed file is stale; `npm run config:schema` rewrites both.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Config } from './schema.js';
import { isSecret } from '../config/secret.js';

export const CONFIG_SCHEMA_PATH = fileURLToPath(new URL('../../config.schema.json', import.meta.url));
export const VALUES_SCHEMA_PATH = fileURLToPath(
  new URL('../../helm/ledger-sentinel/values.schema.json', import.meta.url),
);

/** Marks a secret's JSON Schema while generating, so its `*_file` twin can be added next to it. */
const SECRET = 'x-ledger-sentinel-secret';

// ha.enabled needs state.backend: postgres (state/ha-config.ts), which a zod refinement cannot export.
const HA_NEEDS_POSTGRES = {
  if: {
    type: 'object',
    properties: { ha: { type: 'object', properties: { enabled: { const: true } }, required: ['enabled'] } },
    required: ['ha'],
  },
  then: {
    type: 'object',
    properties: {
      state: { type: 'object', properties: { backend: { const: 'postgres' } }, required: ['backend'] },
    },
    required: ['state'],
  },
};

/** Draft-07: what Helm validates values.schema.json with, and what yaml-language-server reads. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(Config, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-7',
    override: (ctx) => {
      if (isSecret(ctx.zodSchema as z.core.$ZodType)) ctx.jsonSchema[SECRET] = true;
    },
  });
  addFileTwins(schema);
  return {
    ...schema,
    allOf: [...((schema.allOf as unknown[] | undefined) ?? []), HA_NEEDS_POSTGRES],
    title: 'ledger-sentinel config file',
    description: 'The config of ledger-sentinel; every key is described in docs/configuration.md.',
  };
}

// Every secret `x` may be written `x_file: <path>` instead (file-twins.ts): one of the two when x is required,
// never both.
function addFileTwins(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(addFileTwins);
  if (typeof node !== 'object' || node === null) return;
  const object = node as Record<string, unknown>;
  const properties = object.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [key, property] of Object.entries(properties ?? {})) {
    if (property[SECRET] !== true || !properties) continue;
    const twin = `${key}_file`;
    property.description ??= `a secret; or ${twin}, the path of a file holding it`;
    properties[twin] = { type: 'string', minLength: 1, description: `the path of a file holding ${key}` };
    const required = (object.required as string[] | undefined) ?? [];
    // `properties` repeated in each branch: strict validators (ajv strictRequired) want required keys declared.
    const has = (...keys: string[]) => ({
      properties: Object.fromEntries(keys.map((k) => [k, {}])),
      required: keys,
    });
    const rule = required.includes(key) ? { oneOf: [has(key), has(twin)] } : { not: has(key, twin) };
    if (required.includes(key)) object.required = required.filter((k) => k !== key);
    object.allOf = [...((object.allOf as unknown[] | undefined) ?? []), rule];
  }
  delete object[SECRET];
  for (const child of Object.values(object)) addFileTwins(child);
}

/**
 * Keys the chart sets itself (they must match its volume, probes, Service and the ha/state values): refused in
 * `config:` with the value to use instead. The rest of these sections (the API token, PostgreSQL TLS, ...) is the
 * user's.
 */
const CHART_OWNED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  http: {
    host: 'Set by the chart (0.0.0.0).',
    port: 'Set by the chart (service.port).',
  },
  state: {
    dir: 'Set by the chart (the state volume at /var/lib/ledger-sentinel).',
    backend: 'Set by the chart from state.backend.',
  },
  'state.postgres': {
    url: 'Set by the chart from state.database.existingSecret (mounted as url_file).',
    url_file: 'Set by the chart from state.database.existingSecret and state.database.key.',
  },
  ha: {
    enabled: 'Set by the chart from ha.enabled.',
    lease_ttl: 'Set by the chart from ha.leaseTtl.',
    advertise_url: "Set by the chart (the pod's IP and service.port).",
  },
};

/** values.schema.json's `config` property: the config schema, minus the keys the chart owns. */
export function valuesConfigSchema(): Record<string, unknown> {
  const { $schema: _draft, title: _title, ...schema } = configJsonSchema();
  for (const [path, keys] of Object.entries(CHART_OWNED)) {
    let node = schema as { properties?: Record<string, unknown> };
    for (const part of path.split('.')) node = node.properties?.[part] as typeof node;
    const properties = node.properties ?? {};
    for (const [key, description] of Object.entries(keys)) properties[key] = { not: {}, description };
  }
  return {
    ...schema,
    description:
      'The daemon config file (docs/configuration.md), checked with config.schema.json (npm run config:schema).',
  };
}

export function writeConfigJsonSchema(): void {
  writeFileSync(CONFIG_SCHEMA_PATH, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  const values = JSON.parse(readFileSync(VALUES_SCHEMA_PATH, 'utf8')) as {
    properties: Record<string, unknown>;
  };
  values.properties.config = valuesConfigSchema();
  writeFileSync(VALUES_SCHEMA_PATH, `${JSON.stringify(values, null, 2)}\n`);
}
