// The rules room keeps the shape docs/architecture.md draws: sub-rooms that import only down one list, no import
// cycle between its files, and nothing from the rooms above it (the rules are the pure engine the pipeline calls).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SRC = resolve(HERE, '..');

/** Top first: a sub-room may import its own files and those of the sub-rooms after it. */
const ORDER = [
  'engine',
  'alert-content',
  'windows',
  'index',
  'load',
  'alert-state',
  'template',
  'conditions',
  'facts',
  'alert',
];
/** Rooms of src/ the rules never import: they sit above the rules (docs/architecture.md, the rooms). */
const ABOVE = [
  'tail',
  'pipeline',
  'delivery',
  'notifiers',
  'app',
  'api',
  'status',
  'self-monitor',
  'cli',
  'enrich',
];

const files = readdirSync(HERE, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => join(HERE, f));

/** The files a production file imports by relative path, as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"\n]+)['"]/g)].map((m) =>
    resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'),
  );
}

const roomOf = (file: string) => relative(HERE, file).split('/')[0]!;

describe('the rules room', () => {
  it('keeps every file in a sub-room of the list', () => {
    expect(files.map(roomOf).filter((r) => !ORDER.includes(r))).toEqual([]);
  });

  it('imports only down the sub-room list', () => {
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((to) => to.startsWith(HERE) && ORDER.indexOf(roomOf(to)) < ORDER.indexOf(roomOf(file)))
        .map((to) => `${relative(HERE, file)} → ${relative(HERE, to)}`),
    );

    expect(upward).toEqual([]);
  });

  it('imports nothing from the rooms above it', () => {
    const above = files.flatMap((file) =>
      importsOf(file)
        .map((to) => relative(SRC, to))
        .filter((to) => ABOVE.includes(to.split('/')[0]!))
        .map((to) => `${relative(HERE, file)} → ${to}`),
    );

    expect(above).toEqual([]);
  });

  it('has no import cycle between its files', () => {
    const graph = new Map(files.map((f) => [f, importsOf(f).filter((to) => to.startsWith(HERE))]));
    const done = new Set<string>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]): void => {
      if (path.includes(file)) {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(HERE, f)).join(' → '));
        return;
      }
      if (done.has(file)) return;
      for (const to of graph.get(file) ?? []) visit(to, [...path, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);

    expect(cycles).toEqual([]);
  });
});
