// The tree is the architecture (docs/architecture.md), so the few rules that keep it readable are checked:
// config/ is a toolkit at the bottom (it imports nothing else of src/), the workspace packages never import
// the daemon, and test helpers live under test/, not in the production rooms of src/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

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

/** For each relative import of the files under `dir` that lands outside `allowed`, "file → target". */
function importsLeaving(dir: string, allowed: string): string[] {
  return tsFiles(dir).flatMap((file) =>
    specifiers(readFileSync(join(REPO_DIR, file), 'utf8'))
      .filter((s) => s.startsWith('.'))
      .map((s) => relative(REPO_DIR, resolve(REPO_DIR, dirname(file), s)))
      .filter((target) => !target.startsWith(`${allowed}/`))
      .map((target) => `${file} → ${target}`),
  );
}

describe('the layout', () => {
  it('finds imports that leave a folder (so the checks below can fail)', () => {
    expect(importsLeaving('src/cli', 'src/cli').length).toBeGreaterThan(0);
    const text =
      "import a from './layout.test.js';\nexport { b } from '../helpers/shared.js';\nawait import('c');";

    expect(specifiers(text)).toEqual(['./layout.test.js', '../helpers/shared.js', 'c']);
  });

  it('keeps src/config a toolkit at the bottom: it imports nothing else of the repository', () => {
    const production = importsLeaving('src/config', 'src/config').filter((i) => !i.includes('.test.ts →'));

    expect(production).toEqual([]);
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
