import type { z } from 'zod';
import type { LoadResult, LoadYamlOptions } from './load-options.js';
import { loadBatched } from './load-batched.js';
import { loadDocument } from './load-document.js';
import { parseYaml } from './parse-yaml.js';

export type { LoadResult, LoadYamlOptions } from './load-options.js';

/**
 * Loads one YAML document: syntax, `${VAR}` expansion, `*_file` twins, then the schema. Every problem is reported
 * at once, sorted by position; syntax errors stop before validation (the recovered data is unreliable).
 */
export function loadYaml<S extends z.ZodType>(options: LoadYamlOptions<S>): LoadResult<z.output<S>> {
  const lean = options.longList === undefined ? undefined : loadBatched(options, options.longList);
  if (lean) return lean;
  const parsed = parseYaml(options.file, options.text);
  if (parsed.issues.length) return { ok: false, issues: parsed.issues };
  const [first, second] = parsed.documents;
  if (second) {
    const { line, col } = parsed.lines.linePos(second.range?.[0] ?? 0);
    const message = `a second YAML document starts here, but this file holds one; remove the "---" and merge the two`;
    return { ok: false, issues: [{ file: options.file, line, col, path: '', message }] };
  }
  return loadDocument(first, parsed.lines, options);
}
