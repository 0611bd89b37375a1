import type { Scalar } from 'yaml';

/** The most characters one escape (`\UXXXXXXXX`) takes in a double-quoted scalar. */
const MAX_ESCAPE = 10;

/**
 * The file offset of character `offset` of a string scalar's value. The value is not the source text: quotes,
 * escapes, block headers, indentation and folded line breaks sit between its characters, so the source is walked
 * alongside the value. Works for every scalar style; an escape that yields a different character is skipped whole.
 */
export function scalarOffset(text: string, node: Scalar, offset: number): number {
  const [start, end] = node.range ?? [0, 0];
  const value = String(node.value);
  let p = bodyStart(text, start, node.type);
  for (let i = 0; i < offset && i < value.length && p < end; i++)
    p = step(text, p, end, value.charAt(i), node.type);
  while (p < end && isSpace(text.charAt(p)) && !isSpace(value.charAt(offset))) p++;
  return Math.min(p, end);
}

function bodyStart(text: string, start: number, type: Scalar['type']): number {
  if (type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE') return start + 1;
  if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') {
    const header = text.indexOf('\n', start);
    return header < 0 ? start : header + 1;
  }
  return start;
}

/** Consumes the source of one value character `c` from `p`; returns where the next one starts. */
function step(text: string, p: number, end: number, c: string, type: Scalar['type']): number {
  let q = p;
  // Indentation and folded line breaks: a run of blanks in the source may stand for one blank or nothing.
  if (text.charAt(q) !== c && isSpace(text.charAt(q))) {
    while (q < end && isSpace(text.charAt(q))) q++;
    if (isSpace(c)) return q;
  }
  if (type === 'QUOTE_SINGLE' && c === "'" && text.startsWith("''", q)) return q + 2;
  if (type === 'QUOTE_DOUBLE' && text.charAt(q) === '\\') return q + escapeLength(text, q);
  return q + 1;
}

function escapeLength(text: string, p: number): number {
  const kind = text.charAt(p + 1);
  const length = kind === 'x' ? 4 : kind === 'u' ? 6 : kind === 'U' ? MAX_ESCAPE : 2;
  return Math.min(length, text.length - p);
}

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}
