// Template problems of a rule file, at the file:line:col of the offending tag (not of the whole `summary:` value).
// Read from the YAML itself, so a file that fails validation elsewhere still gets its templates checked.
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Scalar, type YAMLMap } from 'yaml';
import type { ConfigIssue } from '../../config/config-error.js';
import { parseYaml } from '../../config/parse-yaml.js';
import { scalarOffset } from '../../config/scalar-offset.js';
import { keyText } from '../../config/walk-yaml.js';
import { CONDITIONS_BY_NAME } from '../conditions/registry.js';
import { checkTemplate } from '../template/check-template.js';
import type { TemplateContext } from '../template/template-variables.js';

/** The rule keys holding templates. */
const TEMPLATE_KEYS = ['summary', 'description'];

/** A file with a syntax error gives none: the parser reports it, and the recovered nodes are unreliable. */
export function templateIssues(file: string, text: string): ConfigIssue[] {
  const parsed = parseYaml(file, text);
  const [doc] = parsed.documents;
  if (parsed.issues.length || parsed.documents.length !== 1 || !doc) return [];
  const rules = isMap(doc.contents) ? doc.contents.get('rules', true) : undefined;
  if (!isSeq(rules)) return [];
  return rules.items.flatMap((rule) => (isMap(rule) ? ruleIssues(file, text, doc, rule, parsed.lines) : []));
}

function ruleIssues(
  file: string,
  text: string,
  doc: Document,
  rule: YAMLMap,
  lines: LineCounter,
): ConfigIssue[] {
  const context = contextOf(toData(doc, rule));
  return rule.items.flatMap((pair) => {
    const key = keyText(pair.key);
    const node = pair.value;
    if (!TEMPLATE_KEYS.includes(key) || !isScalar(node) || typeof node.value !== 'string') return [];
    return checkTemplate(node.value, context).map((problem): ConfigIssue => {
      const { line, col } = lines.linePos(scalarOffset(text, node as Scalar, problem.offset));
      return { file, line, col, path: key, message: problem.message };
    });
  });
}

function toData(doc: Document, rule: YAMLMap): Record<string, unknown> {
  try {
    const data: unknown = rule.toJS(doc, { maxAliasCount: 1000 });
    return isRecord(data) ? data : {};
  } catch {
    return {};
  }
}

/** What the rule provides, read leniently: a wrong value is the schema's to report, the default is assumed. */
function contextOf(rule: Record<string, unknown>): TemplateContext {
  const window = isRecord(rule.window) ? rule.window : undefined;
  return {
    source: rule.source === 'rewards' ? 'rewards' : 'transactions',
    window: !window
      ? 'none'
      : window.absent === true
        ? 'absent'
        : window.count !== undefined
          ? 'count'
          : 'sum',
    trace: usesTrace(rule.when, 0),
  };
}

/** Whether a condition that needs the call trace appears anywhere in a `when` tree (depth-bounded). */
function usesTrace(node: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (Array.isArray(node)) return node.some((child) => usesTrace(child, depth + 1));
  if (!isRecord(node)) return false;
  return Object.entries(node).some(
    ([key, value]) => CONDITIONS_BY_NAME.get(key)?.needsTrace === true || usesTrace(value, depth + 1),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
