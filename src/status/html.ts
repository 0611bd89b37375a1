// HTML built only through the `html` tag: every interpolated value is escaped unless it is itself the output of
// `html` (a SafeHtml), so ledger text (memos, summaries, account names) can never become markup, whichever
// template it lands in. There is no way to mark an arbitrary string as safe.

/** Markup produced by `html`; the class (not a shape) is checked, so a parsed object cannot pose as one. */
export class SafeHtml {
  readonly #text: string;
  constructor(text: string, brand: typeof BRAND) {
    if (brand !== BRAND) throw new Error('SafeHtml is created by the html tag only');
    this.#text = text;
  }
  toString(): string {
    return this.#text;
  }
}

const BRAND = Symbol('safe-html');

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** A tagged template: strings stay as written, values are escaped (arrays are joined, undefined/null/false are empty). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out, BRAND);
}

function part(value: unknown): string {
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === undefined || value === null || value === false) return '';
  // A forged SafeHtml (no private field) or an object whose toString is not a function: never markup, never a throw.
  try {
    return value instanceof SafeHtml ? value.toString() : escapeHtml(String(value));
  } catch {
    return '[unprintable]';
  }
}
