import { describe, expect, it } from 'vitest';
import { isMap, isScalar, LineCounter, parseDocument, type Scalar } from 'yaml';
import { scalarOffset } from './scalar-offset.js';

/** Line and column, in the file, of the first `{{x}}` of the value of key `t`. */
function position(text: string): { line: number; col: number } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const node = isMap(doc.contents) ? doc.contents.get('t', true) : undefined;
  if (!isScalar(node)) throw new Error('no scalar');
  return lines.linePos(scalarOffset(text, node as Scalar, String(node.value).indexOf('{{x}}')));
}

describe('scalarOffset', () => {
  it.each([
    ['plain', 't: ab {{x}}', 1, 7],
    ['double-quoted with escapes', 't: "a\\"\\u00e9\\tb {{x}}"', 1, 18],
    ['single-quoted with a quote', "t: 'it''s {{x}}'", 1, 11],
    ['literal block', 't: |\n  one\n    two {{x}}\n', 3, 9],
    ['folded block', 't: >-\n  one\n  two\n\n  three {{x}}\n', 5, 9],
    ['multi-line plain', 't: one\n  two {{x}}\n', 2, 7],
    ['multi-line double-quoted', 't: "one\n  two {{x}}"\n', 2, 7],
  ])('%s', (_name, text, line, col) => {
    expect(position(text)).toEqual({ line, col });
  });
});
