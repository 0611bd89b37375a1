// A mustache writer with a budget. Rule templates are trusted, the records they render are not: a memo can be as
// long as the service serves it, and a section over a list (`{{#transfers}}…{{/transfers}}`), nested in itself,
// renders list-length-to-the-depth times. Each value is cut at MAX_VALUE_CHARS and the whole rendering stops
// after MAX_RENDER_WORK characters or MAX_SECTION_PASSES passes over a section body, whichever comes first, so one
// alert's text costs a bounded amount of time whatever the record holds. Partials are never loaded, and views are
// plain data (JSON records, strings), so there are no lambdas to call.
import { ALERT_TEXT_MAX, capText } from '../alert/cap-text.js';
import Mustache from 'mustache';

/** The longest text one `{{name}}` renders. */
export const MAX_VALUE_CHARS = ALERT_TEXT_MAX;
/** Characters produced across all nesting levels before rendering stops. */
export const MAX_RENDER_WORK = 64 * 1024;
/** Passes over section bodies (one per list item) before rendering stops. */
export const MAX_SECTION_PASSES = 2_000;
/** Appended where rendering stopped. */
export const TRUNCATED = '… [truncated]';

type Tokens = string[][];
type Partials = Mustache.PartialsOrLookupFn | undefined;
type Config = Mustache.RenderOptions | undefined;

export class BoundedWriter extends Mustache.Writer {
  private work = 0;
  private passes = 0;
  /** Set once the budget is spent: every later call returns at once, so unwinding costs O(depth × list). */
  stopped = false;

  override renderTokens(
    tokens: Tokens,
    context: Mustache.Context,
    partials?: Partials,
    t?: string,
    c?: Config,
  ) {
    if (this.stopped) return '';
    if (++this.passes > MAX_SECTION_PASSES) return this.stop();
    const out = super.renderTokens(tokens, context, partials, t, c);
    this.work += out.length;
    return this.work > MAX_RENDER_WORK ? this.stop(out) : out;
  }

  override renderSection(
    token: string[],
    context: Mustache.Context,
    partials?: Partials,
    t?: string,
    c?: Config,
  ) {
    return this.stopped ? '' : super.renderSection(token, context, partials, t, c);
  }

  override renderPartial(): string {
    return '';
  }

  override escapedValue(token: string[], context: Mustache.Context): string {
    return this.value(context.lookup(token[1] ?? ''));
  }

  override unescapedValue(token: string[], context: Mustache.Context): string {
    return this.value(context.lookup(token[1] ?? ''));
  }

  /** No HTML escaping (the notifiers escape for their medium); long values are cut. */
  private value(value: unknown): string {
    if (value === undefined || value === null || this.stopped) return '';
    const text = String(value);
    return capText(text, MAX_VALUE_CHARS);
  }

  private stop(out = ''): string {
    this.stopped = true;
    return out.slice(0, MAX_RENDER_WORK);
  }
}
