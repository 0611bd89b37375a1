// Every regex a rule or config author writes is compiled here, on RE2 (the `re2` native binding): its matching
// time is linear in the text, so no pattern and no memo can hold the event loop the way a backtracking RegExp can
// (`^(\w+\s?)*$` on 49 × "a" and "!" took the daemon down). What RE2 cannot run, or runs slowly, is refused with
// a reason the loader puts at the regex's file:line:col (see rules/README.md, "Regular expressions").
import RE2 from 're2';
import { regexProblem } from './regex-problem.js';

/** The longest rule regex: long patterns are large RE2 programs, and nobody reads a longer one. */
export const MAX_REGEX_LENGTH = 256;

/** A compiled rule regex: `test` only (no global or sticky state to carry between records). */
export interface RuleRegex {
  test(text: string): boolean;
}

/** `reason` is a clause for after `invalid regular expression "…": `. */
export type CompiledRegex = { ok: true; regex: RuleRegex } | { ok: false; reason: string };

/** `flags`: '' or 'i' (ignore case); unicode mode is always on, as it is for `new RegExp(source, 'u')`. */
export function compileRegex(source: string, flags: '' | 'i' = ''): CompiledRegex {
  if (source.length > MAX_REGEX_LENGTH)
    return {
      ok: false,
      reason: `${MAX_REGEX_LENGTH} characters at most, got ${source.length}; shorten it or split it over several rules`,
    };
  const syntax = javascriptSyntaxError(source);
  if (syntax !== undefined) return { ok: false, reason: syntax };
  const problem = regexProblem(source);
  if (problem !== undefined) return { ok: false, reason: problem };
  try {
    const re = new RE2(source, `${flags}u`);
    return { ok: true, regex: { test: (text) => re.test(text) } };
  } catch (err) {
    return {
      ok: false,
      reason: `not supported by RE2, the linear-time engine rule regexes run on (${(err as Error).message}); rewrite it`,
    };
  }
}

/**
 * Rule regexes are written in JavaScript's unicode-mode syntax (what the docs and editors show), so that grammar
 * decides validity first; the pattern is only parsed here, never run.
 */
function javascriptSyntaxError(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (err) {
    const message = (err as Error).message;
    const reason = message.slice(message.lastIndexOf(': ') + 2);
    return `${reason} (JavaScript regular expression syntax, unicode mode)`;
  }
}
