// Turns the upstream spec-test files into cases, following FIXTURES.md section 1: discovery (1.1), tests and
// URLs (1.2), the bindTimestampRange matrix with responseJsonMatrix shallow merge (1.6), headers (1.8).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { parseSpecJson } from '@ledger-sentinel/simulator/fixture-values';

export interface SpecCase {
  /** `transactions/limit.json #2 /api/v1/…` plus the binding variant. */
  readonly name: string;
  readonly file: string;
  readonly setup: Record<string, unknown>;
  readonly url: string;
  /** undefined = the setup decides (no matrix). */
  readonly bindTimestampRange: boolean | undefined;
  readonly status: number;
  readonly body: unknown;
  /** Expected 2xx headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
}

type Json = Record<string, unknown>;

const HEADERS_FILE = 'responseHeaders.json';

/** Every `.json` file under `root` except responseHeaders.json, sorted for a stable order. */
export function discoverSpecFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.json') && entry.name !== HEADERS_FILE) found.push(path);
    }
  };
  walk(root);
  return found.sort();
}

export function loadSpecCases(root: string, file: string): SpecCase[] {
  const spec = parseSpecJson(readFileSync(file, 'utf8')) as Json;
  const setup = (spec.setup ?? {}) as Json;
  const tests = Array.isArray(spec.tests) ? (spec.tests as Json[]) : [spec];
  const variants: Array<boolean | undefined> = spec.matrix ? [false, true] : [undefined];
  const headers = { ...expectedHeaders(root, file), ...lowerKeys((spec.responseHeaders ?? {}) as Json) };
  const rel = relative(root, file).split(sep).join('/');
  const cases: SpecCase[] = [];
  tests.forEach((test, t) => {
    const urls = Array.isArray(test.urls) ? (test.urls as string[]) : [String(test.url)];
    for (const bind of variants) {
      for (const url of urls) {
        cases.push({
          name: `${rel} #${t + 1} ${url}${bind === undefined ? '' : ` [bindTimestampRange=${bind}]`}`,
          file: rel,
          setup,
          url,
          bindTimestampRange: bind,
          status: Number(test.responseStatus),
          body: expectedBody(test, bind),
          headers,
        });
      }
    }
  });
  return cases;
}

function expectedBody(test: Json, bind: boolean | undefined): unknown {
  const base = test.responseJson;
  const matrix = test.responseJsonMatrix as Json | undefined;
  const override =
    bind === undefined ? undefined : (matrix?.[`bindTimestampRange=${bind}`] as Json | undefined);
  return override ? { ...(base as Json), ...override } : base;
}

/** The nearest responseHeaders.json from the spec's folder up to its group root; default max-age=1. */
function expectedHeaders(root: string, file: string): Record<string, string> {
  const group = join(root, relative(root, file).split(sep)[0] as string);
  for (let dir = dirname(file); dir.startsWith(group); dir = dirname(dir)) {
    const candidate = join(dir, HEADERS_FILE);
    if (existsSync(candidate)) return lowerKeys(JSON.parse(readFileSync(candidate, 'utf8')) as Json);
    if (dir === group) break;
  }
  return { 'cache-control': 'public, max-age=1' };
}

function lowerKeys(headers: Json): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
}
