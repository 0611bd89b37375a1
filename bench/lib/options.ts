// What every benchmark and chaos scenario takes, and the standalone entry that prints its figures.
import { pathToFileURL } from 'node:url';
import { formatTable, type Figure } from './figures.js';

export interface BenchOptions {
  /** Small sizes and short runs (development on a shared machine). */
  readonly quick: boolean;
  /** Progress lines. */
  readonly log: (line: string) => void;
}

export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(entry).href === moduleUrl;
}

export async function runStandalone(bench: (options: BenchOptions) => Promise<Figure[]>): Promise<void> {
  const figures = await bench({ quick: process.argv.includes('--quick'), log: (l) => console.log(l) });
  console.log(formatTable(figures));
}
