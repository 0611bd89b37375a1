// Alert text: mustache (logic-less) templates rendered as plain text. HTML escaping is off on purpose: the
// notifiers escape for their medium (Slack mrkdwn, HTML mail), and double escaping would garble memos.
import { capText } from '../alert/cap-text.js';
import Mustache from 'mustache';
import { BoundedWriter, MAX_VALUE_CHARS, TRUNCATED } from './bounded-writer.js';

export function renderTemplate(template: string, view: object): string {
  return renderLayered(template, [view]);
}

/**
 * Renders over several views without copying them: names are looked up in `views[0]` first, then onwards. The
 * work is bounded whatever the views hold (bounded-writer.ts); where it stopped, the text ends in TRUNCATED.
 */
export function renderLayered(template: string, views: readonly object[]): string {
  let context: Mustache.Context | undefined;
  for (let i = views.length - 1; i >= 0; i--) context = new OwnKeyContext(views[i], context);
  if (!context) return '';
  // Mustache.parse caches the tokens; a fresh writer per rendering holds this rendering's budget.
  const writer = new BoundedWriter();
  const out = writer.renderTokens(Mustache.parse(template) as unknown as string[][], context, {}, template);
  return writer.stopped ? `${out}${TRUNCATED}` : out;
}

/**
 * A template as a function. Templates made only of text and plain `{{name}}` / `{{a.b}}` tags (like explorer
 * links) become a concatenation, with no parse or context walk per call; anything else goes through mustache.
 */
export function compileTemplate(template: string): (view: object) => string {
  const tokens = Mustache.parse(template);
  if (!tokens.every((t) => t[0] === 'text' || t[0] === 'name'))
    return (view) => renderTemplate(template, view);
  const parts = tokens.map((t) => (t[0] === 'text' ? t[1] : t[1].split('.')));
  return (view) => {
    let out = '';
    for (const part of parts) out += typeof part === 'string' ? part : text(lookup(view, part));
    return out;
  };
}

function lookup(view: object, path: readonly string[]): unknown {
  const found = walk(view, path);
  return found.hit ? found.value : undefined;
}

/**
 * Mustache's own context finds names with `in`, so `{{constructor}}` or `{{labels.__proto__}}` would reach
 * Object.prototype. Names in templates are written by users and the views hold ledger data: this context finds
 * own keys only (a primitive's own keys too, e.g. `{{memo.length}}`) and never calls a function it finds.
 */
class OwnKeyContext extends Mustache.Context {
  override push(view: unknown): Mustache.Context {
    return new OwnKeyContext(view, this);
  }

  override lookup(name: string): unknown {
    if (name === '.') return typeof this.view === 'function' ? undefined : this.view;
    return lookupFrom(this, name.split('.'));
  }
}

/** The innermost view holding `path` answers; undefined when none does. */
function lookupFrom(context: Mustache.Context | undefined, path: readonly string[]): unknown {
  for (; context; context = context.parent) {
    const found = walk(context.view, path);
    if (found.hit) return found.value;
  }
  return undefined;
}

/** Own keys along `path`; a miss anywhere is no hit (mustache then asks the parent view). */
function walk(view: unknown, path: readonly string[]): { hit: boolean; value?: unknown } {
  let value = view;
  for (const key of path) {
    if (value === null || value === undefined || !Object.hasOwn(value, key)) return { hit: false };
    value = (value as Record<string, unknown>)[key];
  }
  return { hit: true, value: typeof value === 'function' ? undefined : value };
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  const out = String(value);
  return capText(out, MAX_VALUE_CHARS);
}
