// Alert text: mustache (logic-less) templates rendered as plain text. HTML escaping is off on purpose: the
// notifiers escape for their medium (Slack mrkdwn, HTML mail), and double escaping would garble memos.
import { capText } from './cap-text.js';
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
  for (let i = views.length - 1; i >= 0; i--) context = new Mustache.Context(views[i], context);
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
  let value: unknown = view;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof value === 'function' ? undefined : value;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  const out = String(value);
  return capText(out, MAX_VALUE_CHARS);
}
