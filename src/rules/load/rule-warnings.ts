// Doubts about valid rules (conditions' `warnings`, e.g. a transaction type this version does not know), placed at
// file:line:col like errors. A warning never stops a load: `check` prints it and exits 0, the daemon logs it at
// start and after each reload and shows it at the top of the status page.
import type { ConfigIssue } from '../../config/config-error.js';
import { locate } from '../../config/locate.js';
import { parseYaml } from '../../config/parse-yaml.js';
import type { WhenNode } from '../conditions/shared/condition.js';
import { CONDITIONS_BY_NAME } from '../conditions/registry.js';
import type { Rule } from './schema.js';

type Path = readonly (string | number)[];

/** The warnings of one valid file's rules; the file is parsed again only when there is one. */
export function ruleWarnings(file: string, text: string, rules: readonly Rule[]): ConfigIssue[] {
  const found = rules.flatMap((rule, index) => treeWarnings(rule.when, ['rules', index, 'when']));
  if (found.length === 0) return [];
  const parsed = parseYaml(file, text);
  const [doc] = parsed.documents;
  return found.map(({ path, message }) => {
    const { line, col } = parsed.lines.linePos(locate(doc, path));
    return { file, line, col, path: path.slice(2).join('.'), message };
  });
}

function treeWarnings(node: WhenNode, path: Path): { path: Path; message: string }[] {
  return Object.entries(node).flatMap(([name, value]) => {
    const here = [...path, name];
    if (name === 'not') return treeWarnings(value as WhenNode, here);
    if (name === 'all' || name === 'any')
      return (value as WhenNode[]).flatMap((child, i) => treeWarnings(child, [...here, i]));
    const condition = CONDITIONS_BY_NAME.get(name);
    return (condition?.warnings?.(value) ?? []).map((w) => ({
      path: [...here, ...w.at],
      message: w.message,
    }));
  });
}
