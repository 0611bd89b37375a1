// Ledger-controlled text (memos, and templates that render them) made safe to show in any medium: characters that
// act instead of showing — control characters (NUL, ESC of ANSI sequences, CR), bidi overrides and isolates,
// zero-width and other invisible format characters, line separators, lone surrogates — are replaced by a visible
// `\u{…}` escape, never silently deleted, so the reader sees that they were there. Then each medium escapes for
// itself (Slack mrkdwn, HTML); this runs first because Slack's escaping inserts zero-width spaces of its own.
import { capText } from '../rules/alert/cap-text.js';

/**
 * \p{Cc} controls except tab and newline (handled by the `multiline` flag), \p{Cf} format characters (bidi
 * controls U+202A–202E and U+2066–2069, zero-width U+200B–200F, U+2060, U+FEFF, soft hyphen, tag characters),
 * \p{Zl}/\p{Zp} separators, lone surrogates, and the Hangul fillers that render as blank letters.
 */
const ACTIVE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0]/gu;

export interface NeutralizeOptions {
  /** Keep newlines and tabs (a description template's own lines); otherwise they are escaped too. */
  readonly multiline?: boolean;
}

export function neutralizeText(text: string, options: NeutralizeOptions = {}): string {
  return text.replace(ACTIVE, (c) =>
    options.multiline && (c === '\n' || c === '\t') ? c : `\\u{${hex(c)}}`,
  );
}

function hex(c: string): string {
  return (c.codePointAt(0) ?? 0xfffd).toString(16).toUpperCase();
}

/** Capped first (bounded work on any input), then neutralised: at most about 9 × max characters come out. */
export function shownText(text: string, max: number, options: NeutralizeOptions = {}): string {
  return neutralizeText(capText(text, max), options);
}
