// The lean way to load a config file with a long list (100,000 watched accounts): the list's items are parsed a
// batch at a time into plain values, so no document model of the whole file is ever held (docs/performance.md,
// "Config loading memory"). It only ever says yes: at the first problem of any kind it gives up, and the caller
// loads the file whole, the one way that places every problem at file:line:col (load-yaml.ts).
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import { CORE_SCHEMA, load as loadPlain } from 'js-yaml';
import { isMap, isScalar, isSeq, type Document } from 'yaml';
import type { z } from 'zod';
import { expandEnv } from './expand-env.js';
import { resolveFileTwins } from './file-twins.js';
import { protoKeys, toData, twinTest } from './load-document.js';
import type { LoadResult, LoadYamlOptions } from './load-options.js';
import { parseYaml } from './parse-yaml.js';
import { splitSequence } from './split-sequence.js';
import { validate } from './validate.js';
import { walkYaml } from './walk-yaml.js';

/** Items parsed per batch: the model of 500 accounts is about 1 MB, and the parser's cost per call is paid 200 times. */
const BATCH_SIZE = 500;

/** A valid file with a long top-level list under `key`, loaded without the whole model; undefined otherwise. */
export function loadBatched<S extends z.ZodType>(
  options: LoadYamlOptions<S>,
  key: string,
): { ok: true; value: z.output<S> } | undefined {
  const split = splitSequence(options.text, { key, batchSize: BATCH_SIZE });
  if (!split) return undefined;
  const rest = restData(split.rest, key, options);
  if (!rest) return undefined;
  const items: unknown[] = [];
  const pool = new Map<string, string>();
  for (const batch of split.batches) {
    const values = batchValues(batch, options);
    if (!values) return undefined;
    for (const value of values) items.push(compact(value, pool));
  }
  if (items.length !== split.items) return undefined;
  rest.data[key] = items;
  const result = validate(options.schema, rest.data, { hidden: rest.hidden, written: rest.written });
  return result.ok ? (result as LoadResult<z.output<S>> & { ok: true }) : undefined;
}

interface Rest {
  readonly data: Record<string, unknown>;
  readonly hidden: ReadonlySet<string>;
  readonly written: ReadonlyMap<string, string>;
}

// The file without the list, prepared as loadDocument does (env, `*_file` twins); the key must be there, empty.
function restData<S extends z.ZodType>(
  text: string,
  key: string,
  options: LoadYamlOptions<S>,
): Rest | undefined {
  const doc = single(text, options);
  if (!doc || !isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
  if (!pair || !(pair.value === null || (isScalar(pair.value) && pair.value.value === null)))
    return undefined;
  if (expandEnv(doc.contents, options.env).length) return undefined;
  const twins = resolveFileTwins(doc.contents, {
    baseDir: options.baseDir ?? dirname(options.file),
    readFile: options.readFile ?? ((path) => readFileSync(path, 'utf8')),
    isTwin: twinTest(options.schema, doc),
    skip: new Set(),
    offline: options.offline ?? false,
  });
  if (twins.problems.length) return undefined;
  const data = toData(doc);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  if (protoKeys(data, []).length) return undefined;
  return { data: data as Record<string, unknown>, hidden: twins.contents, written: twins.written };
}

// One batch's items as plain values. A `*_file` key in an item is left to the whole-file load, which knows the
// item's path in the schema.
function batchValues<S extends z.ZodType>(text: string, options: LoadYamlOptions<S>): unknown[] | undefined {
  const plain = plainValues(text);
  if (plain) return plain;
  const doc = single(text, options);
  if (!doc || !isSeq(doc.contents)) return undefined;
  if (expandEnv(doc.contents, options.env).length) return undefined;
  let twin = false;
  walkYaml(doc.contents, (node) => {
    if (isMap(node))
      twin ||= node.items.some((p) => isScalar(p.key) && String(p.key.value).endsWith('_file'));
  });
  if (twin) return undefined;
  const values = toData(doc);
  if (!Array.isArray(values) || protoKeys(values, []).length) return undefined;
  return values;
}

// What js-yaml and yaml read differently, or what needs yaml's model (`${VAR}` knows quoted from plain, `*_file`
// twins and `__proto__` are handled on it): `0b11`, `+0x1F` (numbers to js-yaml, text to yaml's core schema),
// `+.5` and `1e400` (the other way round), `_` in numbers, tags (`!` alone is null to js-yaml, "" to yaml),
// complex `?` keys, merge keys.
const MODEL_ONLY =
  /\$\{|_file|__proto__|<<|\d_|_\d|\b0b|[-+]0x|[-+]\.\d|\d[eE][-+]?\d{3}|(?:^|[\s[{,])!|^[ -]*\?(?: |$)/im;

/**
 * The items as js-yaml reads them with the YAML 1.2 core schema (the schema yaml uses): about ten times faster
 * than yaml's document model, which 100,000 accounts otherwise spend most of their start-up in. Undefined when the
 * batch needs the model, or js-yaml refuses it (then yaml reads it, and reports what is wrong).
 */
function plainValues(text: string): unknown[] | undefined {
  if (MODEL_ONLY.test(text)) return undefined;
  try {
    const values = loadPlain(text, { schema: CORE_SCHEMA });
    return Array.isArray(values) ? values : undefined;
  } catch {
    return undefined;
  }
}

/** Repeated short strings (label values: `prod`, `payments`) are kept once across the whole list. */
const POOLED = 16;

/**
 * The value with its strings made independent of the batch's text: a string a parser cuts from its input (V8
 * keeps a slice of 13 characters or more as a view of it) would keep every batch's text alive, about 115 bytes
 * per account. Short strings come from `pool`, so a label value written 100,000 times is held once.
 */
function compact(value: unknown, pool: Map<string, string>): unknown {
  if (typeof value === 'string') {
    if (value.length > POOLED) return copy(value);
    let kept = pool.get(value);
    if (kept === undefined) pool.set(value, (kept = copy(value)));
    return kept;
  }
  if (Array.isArray(value)) return value.map((item) => compact(item, pool));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) object[key] = compact(object[key], pool);
  return object;
}

function copy(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

function single<S extends z.ZodType>(text: string, options: LoadYamlOptions<S>): Document | undefined {
  const parsed = parseYaml(options.file, text);
  if (parsed.issues.length || parsed.documents.length !== 1) return undefined;
  return parsed.documents[0];
}
