// Cuts one long top-level block sequence (the config's `accounts:` list) out of a YAML text, so its items can be
// parsed a batch at a time instead of as one document model: the model of a file with 100,000 accounts takes
// several hundred MB (docs/performance.md, "Config loading memory"), the plain values it yields a tenth of that.
// A text cut here must also parse whole: every doubt returns undefined (and the caller parses the file whole).

export interface SplitSequence {
  /** The text without the sequence's lines: the key line stays, so the key holds null there. */
  readonly rest: string;
  /** The items, `batchSize` at a time, each batch the text of a block sequence as written. */
  readonly batches: readonly string[];
  readonly items: number;
}

export interface SplitOptions {
  /** The top-level key holding the sequence, e.g. `accounts`. */
  readonly key: string;
  readonly batchSize: number;
}

interface Line {
  readonly start: number;
  readonly end: number;
}

// `---`, `...` and `%` directives start or end documents: such files are parsed whole.
const MARKERS = /^(?:---|\.\.\.|%)/m;

/** Splits `text` at the block sequence under the top-level `key:`; undefined when it is not plainly one. */
export function splitSequence(text: string, options: SplitOptions): SplitSequence | undefined {
  if (MARKERS.test(text) || text.includes('\t')) return undefined;
  const keyLine = new RegExp(`^${options.key.replace(/[^\w-]/g, '\\$&')}:[ ]*(?:#.*)?\\r?$`, 'gm');
  const found = keyLine.exec(text);
  if (!found || keyLine.exec(text)) return undefined;
  const blockStart = text.indexOf('\n', found.index);
  if (blockStart < 0) return undefined;
  const block = itemStarts(text, blockStart + 1);
  if (!block || block.starts.length === 0) return undefined;
  const batches: string[] = [];
  for (let i = 0; i < block.starts.length; i += options.batchSize) {
    const from = block.starts[i] as number;
    const to = block.starts[i + options.batchSize] ?? block.end;
    batches.push(text.slice(from, to));
  }
  const rest = `${text.slice(0, blockStart + 1)}${text.slice(block.end)}`;
  return { rest, batches, items: block.starts.length };
}

/**
 * The offsets of the sequence's item lines (`- ` at the first item's indentation) from `from` to the end of the
 * block: the first line at column 0 that is neither a comment nor (for a sequence at column 0) an item.
 */
function itemStarts(text: string, from: number): { starts: number[]; end: number } | undefined {
  const starts: number[] = [];
  let indent = -1;
  for (let line = nextLine(text, from); line; line = nextLine(text, line.end + 1)) {
    const content = text.slice(line.start, Math.min(line.end, line.start + 256));
    const spaces = content.length - content.trimStart().length;
    const rest = content.slice(spaces);
    if (rest === '' || rest === '\r' || rest.startsWith('#')) continue;
    const item = rest === '-' || rest === '-\r' || rest.startsWith('- ');
    if (indent < 0) {
      if (!item) return undefined; // a flow sequence or a mapping: not a block sequence
      indent = spaces;
    }
    if (spaces === 0 && !(indent === 0 && item)) return { starts, end: line.start };
    if (spaces === indent && item) starts.push(line.start);
    else if (spaces <= indent) return undefined; // not an item, yet not inside one
  }
  return { starts, end: text.length };
}

function nextLine(text: string, start: number): Line | undefined {
  if (start >= text.length) return undefined;
  const newline = text.indexOf('\n', start);
  return { start, end: newline < 0 ? text.length : newline };
}
