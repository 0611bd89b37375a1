// Validates simulator responses against ../shared/ledger-api/openapi.yml with ajv: the OpenAPI 3.0 schemas are
// converted to JSON Schema (nullable → null type, components registered for $ref), with the documented
// corrections: Transaction.batch_key is a 0x-hex string or null, not a Key object (NOTES.md 14); and in the current
// line's document, an account's delegation_address may be "0x" (none set), as the service sends it.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const DOC_ID = 'https://ledger-sentinel.invalid/openapi.json';

type Schema = Record<string, unknown>;

export interface ResponseValidator {
  /** null when valid, else ajv's error text. `body` is parsed with plain JSON.parse (types, not int64 values). */
  validate(openapiPath: string, status: number, body: string): string | null;
}

export function createResponseValidator(openapiFile: string): ResponseValidator {
  const doc = parseYaml(readFileSync(openapiFile, 'utf8')) as Schema;
  const components = doc.components as { schemas: Record<string, Schema>; responses: Record<string, Schema> };
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(components.schemas)) schemas[name] = convert(schema);
  const transaction = schemas.Transaction as { properties: Record<string, unknown> };
  transaction.properties.batch_key = { type: ['string', 'null'], pattern: '^0x[0-9a-fA-F]*$' };
  // The current line's accounts: the service sends delegation_address "0x" when none is set (its own spec cases
  // expect that), which the document's EvmAddressNullable pattern does not allow.
  for (const schema of Object.values(schemas) as Array<{ properties?: Record<string, unknown> }>) {
    if (schema.properties?.delegation_address !== undefined) {
      schema.properties.delegation_address = { type: ['string', 'null'], pattern: '^0x([0-9a-fA-F]{40})?$' };
    }
  }
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: { schemas } });
  const cache = new Map<string, ValidateFunction>();
  const paths = doc.paths as Record<string, { get?: { responses: Record<string, Schema> } }>;

  function validatorFor(path: string, status: number): ValidateFunction {
    const key = `${path} ${status}`;
    const known = cache.get(key);
    if (known) return known;
    const responses = paths[path]?.get?.responses;
    if (!responses) throw new Error(`openapi.yml has no GET ${path}`);
    let response = responses[String(status)];
    if (!response) throw new Error(`openapi.yml has no ${status} response for GET ${path}`);
    if (typeof response.$ref === 'string') response = components.responses[refName(response.$ref)] as Schema;
    const content = response.content as Record<string, { schema: Schema }>;
    const schema = convert(content['application/json']?.schema ?? {});
    const compiled = ajv.compile(schema as Schema);
    cache.set(key, compiled);
    return compiled;
  }

  return {
    validate(path, status, body) {
      const validate = validatorFor(path, status);
      if (validate(JSON.parse(body))) return null;
      return ajv.errorsText(validate.errors, { separator: '\n' });
    },
  };
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** OpenAPI 3.0 schema → JSON Schema: `nullable`, refs into the registered document. */
function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const source = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'example') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = `${DOC_ID}${value}`;
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, convert(v)]));
    } else out[key] = convert(value);
  }
  if (source.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}
