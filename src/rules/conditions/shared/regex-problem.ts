// Why a (syntactically valid, unicode-mode) regex cannot be a rule regex, found before RE2 sees it so the message
// can name the construct and where it is. Two classes: what RE2 cannot do at all (lookaround, backreferences: a
// linear-time engine has no way to run them) and what makes RE2 itself slow (counted repetitions unroll into
// copies of the repeated part, so `.{1,1000}` or `(a{1,30}){1,30}` is a program of thousands of states that runs
// in milliseconds per memo instead of microseconds; see bench/regex-engines.ts).

/** The largest count a repetition may reach, nested counts multiplied (`(x{1,10}){1,10}` counts 100). */
export const MAX_REPEAT = 100;
/** The largest sum of every repetition's count in one regex. */
export const MAX_TOTAL_REPEAT = 400;

const LINEAR = 'rule regexes run on RE2, a linear-time engine';

const GROUP_OPENERS: readonly (readonly [string, string])[] = [
  ['(?<=', 'lookbehind'],
  ['(?<!', 'negative lookbehind'],
  ['(?=', 'lookahead'],
  ['(?!', 'negative lookahead'],
];

interface Scan {
  readonly source: string;
  i: number;
  total: number;
  /** Per open group: the largest count inside it so far. */
  readonly stack: number[];
}

/**
 * The first reason `source` (already valid for `new RegExp(source, 'u')`) cannot run as a rule regex, or undefined.
 * Character positions are 1-based, like the columns of config errors.
 */
export function regexProblem(source: string): string | undefined {
  const scan: Scan = { source, i: 0, total: 0, stack: [0] };
  while (scan.i < source.length) {
    const problem = step(scan);
    if (problem) return problem;
  }
  return undefined;
}

function step(scan: Scan): string | undefined {
  const { source, i } = scan;
  const c = source.charAt(i);
  if (c === '\\') return escape(scan);
  if (c === '[') return skipClass(scan);
  if (c === '(') {
    const opener = GROUP_OPENERS.find(([text]) => source.startsWith(text, i));
    if (opener)
      return `${opener[1]} \`${opener[0]}\` at character ${i + 1} is not supported: ${LINEAR}; rewrite without it`;
    scan.stack.push(0);
    scan.i++;
    return undefined;
  }
  if (c === ')') {
    const inner = scan.stack.pop() ?? 0;
    scan.i++;
    return repeated(scan, inner);
  }
  scan.i++;
  return repeated(scan, 0);
}

/** After an atom whose own largest count is `inner`: applies a following `{n,m}` and records the result. */
function repeated(scan: Scan, inner: number): string | undefined {
  const at = scan.i;
  const count = /^\{(\d+)(,(\d*))?\}/.exec(scan.source.slice(at, at + 24));
  let weight = inner;
  if (count) {
    const bound = Number(count[3] || count[1]);
    weight = bound * Math.max(inner, 1);
    scan.i += count[0].length;
    if (weight > MAX_REPEAT)
      return `counted repetition \`${count[0]}\` at character ${at + 1} repeats up to ${weight} times (nested counts multiply); the limit is ${MAX_REPEAT} because RE2 unrolls counts into states; use + or * or a smaller count`;
    scan.total += weight;
    if (scan.total > MAX_TOTAL_REPEAT)
      return `counted repetitions add up to more than ${MAX_TOTAL_REPEAT} (at \`${count[0]}\`, character ${at + 1}); RE2 unrolls counts into states; use + or * or smaller counts`;
  }
  const top = scan.stack.length - 1;
  scan.stack[top] = Math.max(scan.stack[top] ?? 0, weight);
  return undefined;
}

function escape(scan: Scan): string | undefined {
  const { source, i } = scan;
  const next = source.charAt(i + 1);
  if (/[1-9]/.test(next))
    return `backreference \`\\${next}\` at character ${i + 1} is not supported: ${LINEAR}; rewrite without it`;
  if (next === 'k' && source.charAt(i + 2) === '<')
    return `named backreference \`\\k<\` at character ${i + 1} is not supported: ${LINEAR}; rewrite without it`;
  scan.i = braceEnd(source, i + 2, /[upP]/.test(next));
  return repeated(scan, 0);
}

/** Skips `{…}` after `\u`, `\p` or `\P` (a code point or property, not a count). */
function braceEnd(source: string, from: number, braced: boolean): number {
  if (!braced || source.charAt(from) !== '{') return from;
  const close = source.indexOf('}', from);
  return close < 0 ? source.length : close + 1;
}

/** A character class is one atom; escapes inside cannot be backreferences (`[\1]` is invalid in unicode mode). */
function skipClass(scan: Scan): string | undefined {
  const { source } = scan;
  let j = scan.i + 1;
  while (j < source.length && source.charAt(j) !== ']') j += source.charAt(j) === '\\' ? 2 : 1;
  scan.i = j + 1;
  return repeated(scan, 0);
}
