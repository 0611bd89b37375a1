// The tree is the architecture (docs/architecture.md), so the rules that keep it readable are checked:
// - imports only go down: every room of src/ stands on a floor (FLOORS), and a file imports only from its own room
//   or from a room on a lower floor (production files; a test may compose rooms above its own);
// - no import cycles between the files of src/ and packages/*/src (type imports count: a type shared by two files
//   lives in a leaf both import);
// - app/ only composes: it builds every room's parts and wires them (start, reload, stop); a decision about data
//   (what to check, compare, render, resolve) lives in the room it concerns. What is checked of that: no room
//   but cli/ and main.ts imports app/, and app/ has no sub-rooms;
// - config/ is the toolkit at the bottom (reading YAML with positions, validation messages, secrets, the shared
//   sections): it imports nothing else of src/; config-file/ composes every room's section into the config file;
// - the workspace packages never import the daemon, and test helpers live under test/, not in src/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

/**
 * The floor of each room of src/, from the top down (docs/architecture.md draws it). A room imports only from rooms
 * on a lower floor; rooms on one floor do not import each other. The data reads ledger → streams (tail) →
 * pipeline → rules → delivery → notifiers; the floors differ from that order only where a real dependency asks:
 * the tail stands above delivery and rules because the pipeline it feeds ends in the outbox, and accounts/ stands
 * above ledger/ because an account id is checked with the query service's own grammar (ledger/query-values.ts).
 * A new room takes a floor here deliberately.
 */
const FLOORS: Readonly<Record<string, number>> = {
  'main.ts': 12,
  cli: 11,
  app: 10,
  'config-file': 9,
  api: 8,
  status: 8,
  'self-monitor': 8,
  'rule-test': 8,
  pipeline: 7,
  tail: 6,
  delivery: 5,
  notifiers: 4,
  rules: 3,
  accounts: 2,
  tokens: 2,
  enrich: 2,
  ledger: 1,
  state: 1,
  observability: 0,
  config: 0,
  'version.ts': 0,
};

/** Every .ts file under `dir` (repo-relative paths). */
function tsFiles(dir: string): string[] {
  return readdirSync(join(REPO_DIR, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.split('/').includes('dist'))
    .map((f) => join(dir, f));
}

/** The module specifiers of a file: static imports and re-exports, side-effect imports, import(). */
function specifiers(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"\n]+)['"]/g);
  return [...found].map((m) => m[1]!);
}

interface Import {
  readonly file: string;
  /** Repo-relative, as written (`.js`) resolved to the `.ts` beside it when there is one. */
  readonly target: string;
}

/** The relative imports of the files under `dir`. */
function importsOf(dir: string): Import[] {
  return tsFiles(dir).flatMap((file) =>
    specifiers(readFileSync(join(REPO_DIR, file), 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => {
        const target = relative(REPO_DIR, resolve(REPO_DIR, dirname(file), s));
        const ts = target.replace(/\.js$/, '.ts');
        return { file, target: existsSync(join(REPO_DIR, ts)) ? ts : target };
      }),
  );
}

/** For each relative import of the files under `dir` that lands outside `allowed`, "file → target". */
function importsLeaving(dir: string, allowed: string): string[] {
  return importsOf(dir)
    .filter(({ target }) => !target.startsWith(`${allowed}/`))
    .map(({ file, target }) => `${file} → ${target}`);
}

const isTest = (file: string) => file.endsWith('.test.ts');

/** The room of a file of src/: its top-level folder, or the file itself. */
function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts[1]!;
}

/** Imports from a room to a room on the same or a higher floor (or to a room without a floor), "file → target". */
function upward(imports: readonly Import[]): string[] {
  return imports
    .filter(({ file, target }) => target.startsWith('src/') && roomOf(file) !== roomOf(target))
    .filter(({ file, target }) => !((FLOORS[roomOf(file)] ?? -1) > (FLOORS[roomOf(target)] ?? Infinity)))
    .map(({ file, target }) => `${file} → ${target}`);
}

/** Every import cycle among `files` (a depth-first search; each cycle once, as the path that closes it). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...edges.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

function graph(imports: readonly Import[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const { file, target } of imports) edges.set(file, [...(edges.get(file) ?? []), target]);
  return edges;
}

/** Production files outside cli/, main.ts and app/ itself that import app/. */
function importingApp(imports: readonly Import[]): string[] {
  return imports
    .filter(
      ({ file, target }) => roomOf(target) === 'app' && !['app', 'cli', 'main.ts'].includes(roomOf(file)),
    )
    .map(({ file, target }) => `${file} → ${target}`);
}

const PACKAGES = readdirSync(join(REPO_DIR, 'packages')).map((p) => `packages/${p}/src`);
const SRC = importsOf('src');
const PRODUCTION = SRC.filter(({ file }) => !isTest(file));

describe('the layout', () => {
  it('finds imports that leave a folder (so the checks below can fail)', () => {
    expect(importsLeaving('src/cli', 'src/cli').length).toBeGreaterThan(0);
    const text =
      "import a from './layout.test.js';\nexport { b } from '../helpers/shared.js';\nawait import('c');";

    expect(specifiers(text)).toEqual(['./layout.test.js', '../helpers/shared.js', 'c']);
  });

  it('finds an upward import, a cycle and an import of app/ where there is one', () => {
    const up = [{ file: 'src/ledger/client.ts', target: 'src/tail/tailer.ts' }];
    const unknown = [{ file: 'src/ledger/client.ts', target: 'src/somewhere/x.ts' }];
    const down = [{ file: 'src/tail/tailer.ts', target: 'src/ledger/client.ts' }];
    const loop = graph([
      { file: 'a.ts', target: 'b.ts' },
      { file: 'b.ts', target: 'c.ts' },
      { file: 'c.ts', target: 'a.ts' },
    ]);
    const app = [{ file: 'src/status/page.ts', target: 'src/app/runtime.ts' }];

    expect(upward(up)).toEqual(['src/ledger/client.ts → src/tail/tailer.ts']);
    expect(upward(unknown)).toHaveLength(1);
    expect(upward(down)).toEqual([]);
    expect(cycles(loop)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(cycles(graph(down))).toEqual([]);
    expect(importingApp(app)).toHaveLength(1);
  });

  it('gives every room of src/ a floor', () => {
    const rooms = readdirSync(join(REPO_DIR, 'src')).filter((name) => !name.endsWith('.test.ts'));

    expect(rooms.filter((room) => FLOORS[room] === undefined)).toEqual([]);
  });

  it('imports only downward: no production file imports a room on its own or a higher floor', () => {
    expect(upward(PRODUCTION)).toEqual([]);
  });

  it('keeps the rules off the tail: rules/ reads accounts/, never tail/', () => {
    const intoTail = PRODUCTION.filter(
      ({ file, target }) => roomOf(file) === 'rules' && roomOf(target) === 'tail',
    );

    expect(intoTail.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('has no import cycle among the files of src/ and packages/*/src (type imports included)', () => {
    const imports = [...SRC, ...PACKAGES.flatMap((dir) => importsOf(dir))];

    expect(cycles(graph(imports)).map((c) => c.join(' → '))).toEqual([]);
  });

  it('keeps app/ composition only: no room but cli/ and main.ts imports it, and it has no sub-rooms', () => {
    const folders = readdirSync(join(REPO_DIR, 'src/app'), { withFileTypes: true }).filter((d) =>
      d.isDirectory(),
    );

    expect(importingApp(PRODUCTION)).toEqual([]);
    expect(folders.map((d) => d.name)).toEqual([]);
  });

  it('keeps the config toolkit at the bottom: config/ imports nothing else of src/', () => {
    const toolkit = PRODUCTION.filter(({ file }) => roomOf(file) === 'config');
    const leaving = toolkit.filter(({ target }) => roomOf(target) !== 'config');

    expect(leaving.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it.each(['ledger-model', 'simulator'])('packages/%s imports no file outside its own folder', (name) => {
    const leaving = importsLeaving(`packages/${name}/src`, `packages/${name}/src`);
    const daemon = tsFiles(`packages/${name}/src`).filter((f) =>
      specifiers(readFileSync(join(REPO_DIR, f), 'utf8')).some((s) => s.startsWith('ledger-sentinel')),
    );

    expect([...leaving, ...daemon]).toEqual([]);
  });

  it('keeps test helpers out of src/: no testing/ folder there', () => {
    const dirs = readdirSync(join(REPO_DIR, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.split('/').includes('testing'),
    );

    expect(dirs).toEqual([]);
  });
});
