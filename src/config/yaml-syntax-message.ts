import { isCollection, isMap, isScalar, visit, type Document, type LineCounter, type YAMLError } from 'yaml';

/** Where and how to report a syntax problem: an unclosed quote or bracket is shown where it opens. */
export function yamlSyntaxProblem(
  error: YAMLError,
  doc: Document,
  lines: LineCounter,
): { offset: number; message: string } {
  const opener = unclosedOpener(error, doc);
  if (opener) {
    const message = `the ${opener.char} opened here is never closed; add the closing ${opener.closing}`;
    return { offset: opener.offset, message };
  }
  return { offset: error.pos[0], message: yamlSyntaxMessage(error, doc, lines) };
}

const CLOSING: Readonly<Record<string, string>> = { '"': '"', "'": "'", '[': ']', '{': '}' };

function unclosedOpener(
  error: YAMLError,
  doc: Document,
): { offset: number; char: string; closing: string } | undefined {
  if (error.code !== 'MISSING_CHAR' && error.code !== 'BAD_INDENT') return undefined;
  let found: { offset: number; char: string; closing: string } | undefined;
  visit(doc, (_, node) => {
    const quoted = isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE');
    const flow = isCollection(node) && node.flow;
    if (!(quoted || flow) || node.range?.[1] !== error.pos[0]) return undefined;
    const char = quoted ? (node.type === 'QUOTE_DOUBLE' ? '"' : "'") : isMap(node) ? '{' : '[';
    found = { offset: node.range[0], char, closing: CLOSING[char] ?? char };
    return visit.BREAK;
  });
  return found;
}

/** yaml's message for a syntax problem, with how to fix the common ones. */
function yamlSyntaxMessage(error: YAMLError, doc: Document, lines: LineCounter): string {
  switch (error.code) {
    case 'DUPLICATE_KEY':
      return duplicateKey(error.pos[0], doc, lines);
    case 'TAB_AS_INDENT':
      return 'tabs are not allowed as indentation in YAML; indent with spaces';
    case 'BAD_INDENT':
      return `${lowerFirst(error.message)}; check the indentation of this line and the lines above`;
    case 'MISSING_CHAR':
      return `${lowerFirst(error.message)}; close it, or quote the whole value`;
    case 'BLOCK_AS_IMPLICIT_KEY':
      return `${lowerFirst(error.message)}; a value containing ": " must be quoted`;
    case 'TAG_RESOLVE_FAILED':
      return `${lowerFirst(error.message)}; remove the "!" tag, config files use plain YAML`;
    default:
      return `${lowerFirst(error.message)} (YAML ${error.code})`;
  }
}

function duplicateKey(offset: number, doc: Document, lines: LineCounter): string {
  let message = 'duplicate key; keep only one';
  visit(doc, {
    Map(_, map) {
      const index = map.items.findIndex((pair) => isScalar(pair.key) && pair.key.range?.[0] === offset);
      const duplicate = map.items[index];
      if (!duplicate || !isMap(map)) return;
      const name = String((duplicate.key as { value: unknown }).value);
      const first = map.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === name);
      const line = lines.linePos((first?.key as { range?: [number] } | undefined)?.range?.[0] ?? offset).line;
      message = `duplicate key "${name}" (first set on line ${line}); keep only one`;
      return visit.BREAK;
    },
  });
  return message;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
