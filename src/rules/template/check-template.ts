// What is wrong with one template: it does not parse, or it names a variable its rule's alerts never fill
// (`{{acount.name}}` renders as nothing, silently, in every alert). Pure: offsets are into the template text;
// load/template-issues.ts places them in the rule file.
import Mustache from 'mustache';
import { didYouMean } from '../../config/did-you-mean.js';
import {
  PROVIDED_BY,
  providersFor,
  TEMPLATE_VARIABLES,
  type TemplateContext,
  type VariableProvider,
} from './template-variables.js';

export interface TemplateProblem {
  /** Character offset into the template. */
  readonly offset: number;
  readonly message: string;
}

/** Mustache tokens: [type, value, start, end, children?]. */
type Token = [string, string, number, number, Token[]?];

/** Tags that name a variable; `#` and `^` also open a section. */
const NAMED = new Set(['name', '&', '#', '^']);

export function checkTemplate(template: string, context: TemplateContext): TemplateProblem[] {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(template) as unknown as Token[];
  } catch (err) {
    return [parseProblem(template, (err as Error).message)];
  }
  const allowed = providersFor(context).flatMap((p) => TEMPLATE_VARIABLES[p]);
  const problems: TemplateProblem[] = [];
  walk(tokens, [''], (token, scopes) => {
    const name = token[1];
    if (name === '.') return name;
    const path = resolve(name, scopes, allowed);
    if (path !== undefined) return path;
    const offset = token[2] + template.slice(token[2], token[3]).indexOf(name);
    problems.push({ offset, message: unknownMessage(name, scopes, allowed) });
    return name;
  });
  return problems;
}

/** `visit` returns the full path the tag's name stands for; a section's body is looked up under it first. */
function walk(tokens: Token[], scopes: string[], visit: (token: Token, scopes: string[]) => string): void {
  for (const token of tokens) {
    if (!NAMED.has(token[0])) continue;
    const path = visit(token, scopes);
    const children = token[4];
    if (!children) continue;
    // `{{#list}}` renders its body with each item as the innermost context; `{{^x}}` pushes nothing.
    walk(children, token[0] === '#' && path !== '.' ? [`${path}.`, ...scopes] : scopes, visit);
  }
}

/** The full path `name` means in the innermost scope that knows it, like mustache's own lookup. */
function resolve(name: string, scopes: readonly string[], allowed: readonly string[]): string | undefined {
  for (const scope of scopes) {
    const path = scope + name;
    if (known(path, allowed)) return path;
  }
  return undefined;
}

function known(path: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    if (entry === path || entry.startsWith(`${path}.`)) return true;
    return entry.endsWith('.*') && `${path}.`.startsWith(entry.slice(0, -1));
  });
}

function unknownMessage(name: string, scopes: readonly string[], allowed: readonly string[]): string {
  const elsewhere = (Object.keys(TEMPLATE_VARIABLES) as VariableProvider[]).find((provider) =>
    scopes.some((scope) => known(scope + name, TEMPLATE_VARIABLES[provider])),
  );
  if (elsewhere)
    return `template variable "${name}" is filled only in ${PROVIDED_BY[elsewhere]}, not in this rule's alerts; remove it`;
  const guess = didYouMean(name, candidates(name, scopes, allowed));
  const hint = guess
    ? `did you mean "${guess}"?`
    : 'the variables are listed in rules/README.md ("Templates")';
  return `unknown template variable "${name}"; ${hint}`;
}

/** Names the template could have meant here: scope-relative, with `*` standing for what the user wrote. */
function candidates(name: string, scopes: readonly string[], allowed: readonly string[]): string[] {
  const parts = name.split('.');
  const spelled = allowed.map((entry) => {
    const head = entry.split('.');
    if (head.at(-1) !== '*') return entry;
    const rest = parts.slice(head.length - 1);
    return [...head.slice(0, -1), ...(rest.length ? rest : ['name'])].join('.');
  });
  return scopes.flatMap((scope) =>
    spelled.filter((entry) => entry.startsWith(scope)).map((entry) => entry.slice(scope.length)),
  );
}

/**
 * Mustache's messages end in `at <offset>`, an offset users cannot find; the message says what to add instead,
 * at the tag that is not closed.
 */
function parseProblem(template: string, message: string): TemplateProblem {
  const match = /^(.*) at (\d+)$/.exec(message);
  const at = match ? Number(match[2]) : 0;
  const what = match?.[1] ?? message;
  const section = /^Unclosed section "(.*)"$/.exec(what)?.[1];
  if (section !== undefined && at >= template.length) {
    const opened = lastOpening(template, section);
    return {
      offset: opened,
      message: `invalid template: section "${section}" is never closed; add {{/${section}}}`,
    };
  }
  if (section !== undefined)
    return {
      offset: at,
      message: `invalid template: section "${section}" must be closed before this tag; add {{/${section}}}`,
    };
  const unopened = /^Unopened section "(.*)"$/.exec(what)?.[1];
  if (unopened !== undefined)
    return {
      offset: at,
      message: `invalid template: {{/${unopened}}} closes a section that is not open; remove it or open it with {{#${unopened}}}`,
    };
  if (what === 'Unclosed tag') {
    const closed = template.lastIndexOf('}}', at);
    const opened = template.indexOf('{{', closed < 0 ? 0 : closed);
    return { offset: Math.max(opened, 0), message: 'invalid template: this tag is never closed; add }}' };
  }
  return { offset: Math.min(at, template.length), message: `invalid template: ${what}` };
}

function lastOpening(template: string, section: string): number {
  const escaped = section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const openings = [...template.matchAll(new RegExp(`\\{\\{\\s*[#^]\\s*${escaped}\\s*\\}\\}`, 'g'))];
  return openings.at(-1)?.index ?? 0;
}
