// The chart's values as helm sees them: values.yaml, user files merged over it, validated by values.schema.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { CHART_DIR } from './render-chart.js';

export type Values = Record<string, unknown>;

export function readValues(path: string = join(CHART_DIR, 'values.yaml')): Values {
  return (parse(readFileSync(path, 'utf8')) ?? {}) as Values;
}

/** Helm's merge of user values over values.yaml: maps merge, anything else replaces, null deletes. */
export function coalesceValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(current)) out[key] = coalesceValues(current, value);
    else out[key] = value;
  }
  return out;
}

function isMap(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** values.schema.json compiled with ajv in strict mode (a schema mistake is an error too). */
export function compileValuesSchema() {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  // Helm checks formats too (the config's silences take date-times).
  (addFormatsModule as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv.compile<Values>(
    JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as object,
  );
}
