import { isScalar, parse } from 'yaml';
import type { Node } from 'yaml';
import { expandString } from './expand-string.js';
import type { PathKey } from './validate.js';
import { walkYaml } from './walk-yaml.js';

/** A problem found while preparing the document, before validation. */
export interface NodeProblem {
  readonly offset: number;
  readonly path: readonly PathKey[];
  readonly message: string;
}

/**
 * Expands `${VAR}` in every string value of the document, in place. An unquoted value that expands to a number
 * or boolean becomes one (`port: ${PORT}`), as if the text had been substituted before parsing.
 */
export function expandEnv(root: unknown, env: Readonly<Record<string, string | undefined>>): NodeProblem[] {
  const problems: NodeProblem[] = [];
  walkYaml(root, (node: Node, path) => {
    if (!isScalar(node) || typeof node.value !== 'string') return;
    const expansion = expandString(node.value, env);
    const offset = node.range?.[0] ?? 0;
    for (const message of expansion.problems) problems.push({ offset, path, message });
    if (!expansion.changed || expansion.problems.length) return;
    node.value = node.type === 'PLAIN' ? retype(expansion.value) : expansion.value;
  });
  return problems;
}

function retype(text: string): unknown {
  if (!/^[-+.\w]+$/.test(text)) return text;
  const value: unknown = parse(text);
  return typeof value === 'number' || typeof value === 'boolean' ? value : text;
}
