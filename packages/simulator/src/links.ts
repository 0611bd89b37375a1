// links.next exactly as the 0.129 service builds it (docs/ledger-api.md §11.2): relative, the request path as sent, the
// parsed params in key order with raw values, the cursor field rewritten, nothing percent-encoded.
import type { QueryParam } from './params.js';

export interface NextLinkInput {
  /** The request path as sent, prefix included, without the query. */
  readonly path: string;
  readonly params: readonly QueryParam[];
  /** `timestamp` or `index`. */
  readonly field: string;
  readonly order: 'asc' | 'desc';
  /** The cursor value, already formatted (`1565779333.711927001`, `2`). */
  readonly cursor: string;
}

const RANGE = /(gt|gte|lt|lte):/;

/** Builds the next link; see docs/ledger-api.md §11.2-11.4 for the rewrite table this implements. */
export function buildNextLink(input: NextLinkInput): string {
  const strip = input.order === 'asc' ? /gte?:/ : /lte?:/;
  const cursorValue = `${input.order === 'asc' ? 'gt' : 'lt'}:${input.cursor}`;
  const pairs: Array<[string, string[]]> = [];
  let appendAtEnd = true;
  for (const { key, values } of input.params) {
    if (key !== input.field) {
      pairs.push([key, values]);
      continue;
    }
    appendAtEnd = false;
    if (values.length === 1) {
      const only = values[0] as string;
      if (strip.test(only)) appendAtEnd = true;
      else if (RANGE.test(only)) pairs.push([key, [only, cursorValue]]);
      else pairs.push([key, values]);
      continue;
    }
    const kept = values.filter((value) => !strip.test(value));
    pairs.push([key, values.some((value) => RANGE.test(value)) ? [...kept, cursorValue] : kept]);
  }
  if (appendAtEnd) pairs.push([input.field, [cursorValue]]);
  return `${trimSlash(input.path)}?${serializePairs(pairs)}`;
}

/** The link the eq-only quirk produces (docs/ledger-api.md §11.4): the parsed request, unchanged. */
export function selfLink(path: string, params: readonly QueryParam[]): string {
  return `${trimSlash(path)}?${serializePairs(params.map(({ key, values }) => [key, values]))}`;
}

function serializePairs(pairs: ReadonlyArray<readonly [string, readonly string[]]>): string {
  const parts: string[] = [];
  for (const [key, values] of pairs) for (const value of values) parts.push(`${key}=${value}`);
  return parts.join('&');
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
