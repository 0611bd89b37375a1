// What a reload changes, part by part (docs/operations.md, "Reload"): the runtime swaps only those parts and
// leaves the rest running. Sections are compared by content, so a file rewritten with the same values changes
// nothing.
import type { Config } from './schema.js';

/** What a reload compares: the config, the watch list and the rules as loaded (app/load-all.ts gives these). */
export interface ReloadInputs {
  readonly config: Config;
  readonly accounts: readonly unknown[];
  readonly rules: readonly { readonly rule: unknown }[];
  readonly ruleSet: {
    readonly rules: readonly {
      readonly id: string;
      readonly groupBy: unknown;
      readonly window?: { readonly kind: string } | undefined;
    }[];
  };
}

export interface ReloadPlan {
  /** The rule set or what it is compiled against (accounts, explorer links): the engine is swapped. */
  readonly rules: boolean;
  /** Rules kept by id whose content changed and whose state no longer fits (group_by or window kind). */
  readonly incompatibleRules: readonly string[];
  /** Notifiers added, removed or changed (by name): swapped in the delivery worker's channel map. */
  readonly notifiers: readonly string[];
  readonly routes: boolean;
  /** The watch list: the tailer's stream list is swapped between two rounds of the running loop. */
  readonly accounts: boolean;
  /** `ledger`, `tail`, `verification` or `tokens`: the tail part (clients, token facts, poll loop) restarts. */
  readonly tail: boolean;
  /** Config silences: the delivery worker restarts (sends in flight finish first). */
  readonly delivery: boolean;
  /** `daemon.tick_interval`: the tick timer restarts (only then). */
  readonly tick: boolean;
  /** `self_monitoring`, accounts or notifiers: the built-in checks are rebuilt (their state is kept). */
  readonly selfMonitoring: boolean;
  /** `silences` or `inhibit_rules`: applied to the runtime controls in place. */
  readonly controls: boolean;
  /** Keys that take effect on restart only (logged as a warning); the API token is read per request. */
  readonly restartNeeded: readonly string[];
}

/** JSON with bigints as strings: config sections and rules hold bigint amounts. */
export function contentKey(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? '';
}

export function planReload(before: ReloadInputs, after: ReloadInputs): ReloadPlan {
  const a = before.config;
  const b = after.config;
  const same = (x: unknown, y: unknown) => contentKey(x) === contentKey(y);
  const accounts = !same(before.accounts, after.accounts);
  const notifiers = changedNames(a.notifiers, b.notifiers);
  return {
    rules: !same(ruleInputs(before), ruleInputs(after)),
    incompatibleRules: incompatibleRules(before, after),
    notifiers,
    routes: !same(a.routes, b.routes),
    accounts,
    tail: !same([a.ledger, a.tail, a.verification, a.tokens], [b.ledger, b.tail, b.verification, b.tokens]),
    delivery: !same(a.silences, b.silences),
    tick: a.daemon.tick_interval !== b.daemon.tick_interval,
    selfMonitoring: accounts || notifiers.length > 0 || !same(a.self_monitoring, b.self_monitoring),
    controls: !same([a.silences, a.inhibit_rules], [b.silences, b.inhibit_rules]),
    restartNeeded: [
      ...(a.state.dir === b.state.dir ? [] : ['state.dir']),
      ...(a.http.host === b.http.host && a.http.port === b.http.port ? [] : ['http.host', 'http.port']),
    ],
  };
}

/** The names of the parts a plan touches, for the log line and the tests. */
export function changedParts(plan: ReloadPlan): string[] {
  const parts: [string, boolean][] = [
    ['rules', plan.rules],
    ['notifiers', plan.notifiers.length > 0],
    ['routes', plan.routes],
    ['accounts', plan.accounts],
    ['tail', plan.tail],
    ['delivery', plan.delivery],
    ['tick', plan.tick],
    ['self_monitoring', plan.selfMonitoring],
    ['controls', plan.controls],
  ];
  return parts.filter(([, changed]) => changed).map(([name]) => name);
}

function ruleInputs(loaded: ReloadInputs): unknown {
  const { config } = loaded;
  return [loaded.rules.map((r) => r.rule), loaded.accounts, config.explorer, config.ledger.base_url];
}

function changedNames(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((name) => contentKey(a[name]) !== contentKey(b[name])).sort();
}

/** A changed rule keeps its state while it groups the same way and has the same kind of window. */
function incompatibleRules(before: ReloadInputs, after: ReloadInputs): string[] {
  const old = new Map(before.ruleSet.rules.map((r) => [r.id, r]));
  return after.ruleSet.rules
    .filter((rule) => {
      const was = old.get(rule.id);
      if (!was) return false;
      return contentKey(was.groupBy) !== contentKey(rule.groupBy) || was.window?.kind !== rule.window?.kind;
    })
    .map((r) => r.id);
}
