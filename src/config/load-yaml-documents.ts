import type { z } from 'zod';
import { sortIssues } from './config-error.js';
import { loadDocument } from './load-document.js';
import type { LoadResult, LoadYamlOptions } from './load-options.js';
import { parseYaml } from './parse-yaml.js';

/** Like `loadYaml` for files that may hold several `---`-separated documents, each validated by `schema`. */
export function loadYamlDocuments<S extends z.ZodType>(
  options: LoadYamlOptions<S>,
): LoadResult<z.output<S>[]> {
  const parsed = parseYaml(options.file, options.text);
  if (parsed.issues.length) return { ok: false, issues: parsed.issues };
  const results = parsed.documents.map((doc) => loadDocument(doc, parsed.lines, options));
  const issues = results.flatMap((result) => (result.ok ? [] : result.issues));
  if (issues.length) return { ok: false, issues: sortIssues(issues) };
  return { ok: true, value: results.map((result) => (result as { value: z.output<S> }).value) };
}
