// One source for every benchmark goal, and a record for every published figure (docs/performance.md):
// - the Target column of "What is measured" says exactly what bench/targets.ts holds, bench by bench;
// - no benchmark checks a figure against a bound of its own (a relaxed bound hides beside the goal);
// - every row of "The published figures and their record" is either in bench/results.json with the value it
//   publishes, or says it is not, with the command and the date of the run that measured it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TARGETS, targetCell } from '../../bench/targets.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'performance.md'), 'utf8');

interface RecordedFigure {
  readonly suite: string;
  readonly name: string;
  readonly value: number | string;
}
const RESULTS = JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8')) as {
  figures: RecordedFigure[];
};

/** The rows of the first Markdown table after `heading`, as arrays of cells. */
function tableAfter(heading: string): string[][] {
  const start = DOC.indexOf(heading);
  expect(start, `docs/performance.md has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const lines = DOC.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

/** A table row's cells; a `|` inside a code span does not split. */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let code = false;
  for (const ch of line.slice(1, line.trimEnd().length - 1)) {
    if (ch === '`') code = !code;
    if (ch === '|' && !code) {
      out.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  out.push(cell.trim());
  return out;
}

function benchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? benchFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('benchmark goals: one source', () => {
  const rows = tableAfter('## What is measured');

  it('the docs table lists every benchmark that has a target', () => {
    const benches = new Set(Object.values(TARGETS).map((t) => t.bench));
    const listed = new Set(rows.map((r) => Number(r[0])));
    expect([...benches].filter((n) => !listed.has(n))).toEqual([]);
  });

  it.each(rows.map((r) => [Number(r[0]), r.at(-1) ?? ''] as const))(
    'bench %i: the Target column states bench/targets.ts',
    (n, cell) => {
      expect(cell).toBe(targetCell(n) || '(recorded)');
    },
  );

  it('no benchmark checks a figure against a bound of its own', () => {
    const own = benchFiles(join(ROOT, 'bench'))
      .filter((f) => !f.endsWith('targets.ts') && !f.endsWith(join('lib', 'figures.ts')))
      .filter((f) => /\bchecked\(/.test(readFileSync(f, 'utf8')));
    expect(own.map((f) => f.slice(ROOT.length + 1))).toEqual([]);
  });
});

describe('published figures: each with its record', () => {
  const rows = tableAfter('### The published figures and their record');

  it('the table is there', () => {
    expect(rows.length).toBeGreaterThan(5);
  });

  it.each(rows.map((r) => [r[0] ?? '', r[1] ?? '', r[2] ?? '', r.at(-1) ?? ''] as const))(
    'bench %s, %s: in results.json with that value, or labelled with its run',
    (bench, name, value, record) => {
      if (record.startsWith('results.json')) {
        const figureName = /^`(.+)`$/.exec(name)?.[1];
        expect(
          figureName,
          'a results.json row names the figure as it is recorded, in backticks',
        ).toBeDefined();
        const recorded = RESULTS.figures.find(
          (f) => f.suite.startsWith(`${bench} `) && f.name === figureName,
        );
        expect(recorded, `bench/results.json has no figure "${figureName}" of bench ${bench}`).toBeDefined();
        expect(Number(value.replaceAll(',', ''))).toBe(Number(recorded?.value));
      } else if (record.startsWith('not in results.json')) {
        expect(record, 'names the command that measured it').toMatch(/`(node|npm) [^`]+`/);
        expect(record, 'names the date of the run').toMatch(/\d{4}-\d{2}-\d{2}/);
      } else {
        expect(record).toBe('no run recorded');
        expect(value).toBe('not published');
      }
    },
  );
});
