import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import type { z } from 'zod';
import { sortIssues, type ConfigIssue } from './config-error.js';
import { expandEnv, type NodeProblem } from './expand-env.js';
import { resolveFileTwins } from './file-twins.js';
import type { LoadResult, LoadYamlOptions } from './load-options.js';
import { locate } from './locate.js';
import { validate, type PathKey } from './validate.js';
import { defOf, objectSchemasAt } from './zod-def.js';

/** Env expansion, `*_file` twins and validation of one parsed document (empty when undefined). */
export function loadDocument<S extends z.ZodType>(
  doc: Document | undefined,
  lines: LineCounter,
  options: LoadYamlOptions<S>,
): LoadResult<z.output<S>> {
  const envProblems = expandEnv(doc?.contents, options.env);
  const twins = resolveFileTwins(doc?.contents, {
    baseDir: options.baseDir ?? dirname(options.file),
    readFile: options.readFile ?? ((path) => readFileSync(path, 'utf8')),
    isTwin: twinTest(options.schema, doc),
    skip: new Set(envProblems.map((problem) => problem.path.join('.'))),
    offline: options.offline ?? false,
  });
  const problems: NodeProblem[] = [...envProblems, ...twins.problems];
  const issue = (offset: number, path: readonly PathKey[], message: string): ConfigIssue => {
    const { line, col } = lines.linePos(offset);
    return { file: options.file, line, col, path: path.join('.'), message };
  };
  const data = toData(doc);
  if (data instanceof Error) return { ok: false, issues: [issue(0, [], data.message)] };
  problems.push(
    ...protoKeys(data, []).map((path) => ({ offset: locate(doc, path, true), path, message: PROTO })),
  );
  const result = validate(options.schema, data, { hidden: twins.contents, written: twins.written });
  if (result.ok && !problems.length) return result;
  const reported = problems.map((problem) => problem.path);
  const schemaIssues = result.ok
    ? []
    : result.issues.filter((i) => !reported.some((p) => startsWith(i.path, p)));
  const issues = [
    ...problems.map((p: NodeProblem) => issue(p.offset, p.path, p.message)),
    ...schemaIssues.map((i) => issue(locate(doc, i.at, i.atKey), i.path, i.message)),
  ];
  return { ok: false, issues: sortIssues(issues) };
}

// `<name>_file` is a twin unless the schema there knows `<name>_file` itself, or knows no `<name>` at all.
export function twinTest(schema: z.ZodType, doc: Document | undefined) {
  // Built on the first `*_file` key only: a copy of the whole document for every load cost as much as the model.
  let data: { value: unknown } | undefined;
  return (path: readonly PathKey[], name: string): boolean => {
    data ??= { value: toData(doc) };
    const objects = objectSchemasAt(schema, path, data.value);
    if (!objects) return true;
    const shapes = objects.map((object) => defOf(object).shape ?? {});
    return (
      shapes.some((shape) => Object.hasOwn(shape, name)) &&
      !shapes.some((shape) => Object.hasOwn(shape, `${name}_file`))
    );
  };
}

function startsWith(path: readonly PathKey[], prefix: readonly PathKey[]): boolean {
  return prefix.every((key, index) => String(path[index]) === String(key));
}

const PROTO =
  '"__proto__" cannot be a key: a mapping would drop it silently (a route or a silence on it would match every alert); rename it';

/**
 * Paths of every `__proto__` key. yaml keeps it as an own key, but zod and any plain-object copy drop it (or set
 * the prototype with it), so it is refused here, where it can still be seen, for every config and rule file.
 */
export function protoKeys(value: unknown, path: PathKey[], seen = new Set<object>()): PathKey[][] {
  // An alias yields the same object again: each is walked once, so aliases cannot multiply the work.
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  if (Array.isArray(value)) return value.flatMap((item, i) => protoKeys(item, [...path, i], seen));
  return Object.keys(value).flatMap((key) =>
    key === '__proto__'
      ? [[...path, key]]
      : protoKeys((value as Record<string, unknown>)[key], [...path, key], seen),
  );
}

// yaml refuses "billion laughs" alias expansion; that is the only way toJS throws on a parsed document.
export function toData(doc: Document | undefined): unknown {
  try {
    return doc ? doc.toJS({ maxAliasCount: 1000 }) : null;
  } catch {
    return new Error('too many alias expansions (*name); write the values out instead of repeating aliases');
  }
}
