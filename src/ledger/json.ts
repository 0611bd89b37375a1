// Int64-exact JSON parsing. Plain JSON.parse is several times faster than a lossless parser and most pages
// hold only safe integers, so the exact path runs only where a page needs it:
// - parseJson: scans for a run of 16+ digits (2^53 has 16) and only then parses losslessly. A false positive
//   (a long digit run inside a string) costs speed, never correctness.
// - page.ts goes further: it parses with JSON.parse, and only if the record checks meet an integer that is not
//   a safe double does it quote those integers (quoteUnsafeIntegers, a string-aware char loop) and parse again;
//   Int64 accepts digit strings. No scan at all on ordinary pages, and no slow lossless parser on the others.
import { isInteger, isSafeNumber, parse } from 'lossless-json';

/** Parses JSON; integers that are not safe doubles become bigint, everything else is as JSON.parse gives. */
export function parseJson(text: string): unknown {
  return needsExactParse(text) ? parseJsonExact(text) : JSON.parse(text);
}

/** Always the lossless parser: unsafe integers become bigint. */
export function parseJsonExact(text: string): unknown {
  return parse(text, null, parseExactNumber);
}

/** True when the text has a run of 16 or more digits (a char loop: a regex is slower on digit-heavy text). */
export function needsExactParse(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++run === 16) return true;
    } else run = 0;
  }
  return false;
}

function parseExactNumber(value: string): number | bigint {
  if (isSafeNumber(value)) return Number(value);
  if (isInteger(value)) return BigInt(value);
  // A non-integer that does not round-trip (e.g. a long decimal): a double is the best we can do.
  return Number(value);
}

/**
 * Rewrites integer literals that are not safe doubles as JSON strings (`5000000000000000000` →
 * `"5000000000000000000"`), leaving string contents, decimals and exponents alone. Returns the input itself
 * when nothing needs quoting.
 */
export function quoteUnsafeIntegers(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = skipString(text, i);
      continue;
    }
    if (c !== 45 && (c < 48 || c > 57)) {
      i++;
      continue;
    }
    const end = numberEnd(text, i);
    if (isUnsafeInteger(text, i, end)) {
      parts.push(text.slice(copied, i), '"', text.slice(i, end), '"');
      copied = end;
    }
    i = end;
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** Index after the closing quote of the string starting at `start` (native indexOf does the scanning). */
function skipString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

function numberEnd(text: string, start: number): number {
  let i = start + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45)) break;
  }
  return i;
}

function isUnsafeInteger(text: string, start: number, end: number): boolean {
  const digits = end - start - (text.charCodeAt(start) === 45 ? 1 : 0);
  if (digits < 16) return false;
  const token = text.slice(start, end);
  return /^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token));
}
