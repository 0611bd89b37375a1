// The config's label references checked against the labels alerts can carry (known-labels.ts): `routes[].match
// .labels`, `silences[].labels`, `inhibit_rules[]` matchers and `equal`. They need the rule files, so they run
// after both are loaded (app/load-all.ts), at the config file's line and column.
import type { ConfigIssue } from '../config/config-error.js';
import { locate } from '../config/locate.js';
import { parseYaml } from '../config/parse-yaml.js';
import type { PathKey } from '../config/validate.js';
import type { Route, Silence } from '../notifiers/schema.js';
import type { InhibitRule } from './inhibit-rules.js';
import { unknownLabelMessage } from './known-labels.js';
import { parseMatcher } from './matchers.js';

export interface LabelledConfig {
  readonly routes: readonly Route[];
  readonly silences: readonly Silence[];
  readonly inhibit_rules: readonly InhibitRule[];
}

/** Every label name in the config that no alert can carry; `text` reads the config file, for positions. */
export function configLabelIssues(
  file: string,
  text: () => string,
  config: LabelledConfig,
  known: readonly string[],
): ConfigIssue[] {
  const refs: { path: PathKey[]; name: string; atKey: boolean }[] = [];
  config.routes.forEach((route, i) =>
    Object.keys(route.match.labels ?? {}).forEach((name) =>
      refs.push({ path: ['routes', i, 'match', 'labels', name], name, atKey: true }),
    ),
  );
  config.silences.forEach((silence, i) =>
    Object.keys(silence.labels ?? {}).forEach((name) =>
      refs.push({ path: ['silences', i, 'labels', name], name, atKey: true }),
    ),
  );
  config.inhibit_rules.forEach((rule, i) => {
    for (const side of ['source_matchers', 'target_matchers'] as const)
      rule[side].forEach((matcher, j) => {
        const parsed = parseMatcher(matcher);
        if (typeof parsed !== 'string')
          refs.push({ path: ['inhibit_rules', i, side, j], name: parsed.name, atKey: false });
      });
    rule.equal.forEach((name, j) =>
      refs.push({ path: ['inhibit_rules', i, 'equal', j], name, atKey: false }),
    );
  });
  const unknown = refs.flatMap((ref) => {
    const message = unknownLabelMessage(ref.name, known);
    return message === undefined ? [] : [{ ...ref, message }];
  });
  if (unknown.length === 0) return [];
  const parsed = parseYaml(file, text());
  return unknown.map((ref) => {
    const { line, col } = parsed.lines.linePos(locate(parsed.documents[0], ref.path, ref.atKey));
    return { file, line, col, path: ref.path.join('.'), message: ref.message };
  });
}
