// The config sections owned by notifiers/: `notifiers`, `routes`, `silences`. config-file/schema.ts composes them.
import { z } from 'zod';
import { SEVERITIES } from '../rules/alert/alert.js';
import { duration } from '../config/duration.js';
import type { NotifierKind } from './notifier-kind.js';
import { NOTIFIER_KINDS } from './registry.js';

type Kinds = typeof NOTIFIER_KINDS;
/** The union of every kind's config type, derived from the registry. */
export type NotifierConfig = {
  [K in keyof Kinds]: Kinds[K] extends NotifierKind<infer C> ? C : never;
}[keyof Kinds];

// Each config is a strict z.object (discriminable); the registry's interface only promises ZodType.
const kinds = Object.values(NOTIFIER_KINDS).map((k) => k.config) as unknown as [
  z.core.$ZodTypeDiscriminable,
  ...z.core.$ZodTypeDiscriminable[],
];

/** `notifiers:` — name → {kind, …}; the kind picks a strict schema from the registry. */
export const Notifiers = z
  .record(z.string(), z.discriminatedUnion('kind', kinds) as unknown as z.ZodType<NotifierConfig, unknown>)
  .superRefine((notifiers, ctx) => {
    for (const name of Object.keys(notifiers))
      if (!/^[a-z0-9][a-z0-9_-]*$/.test(name))
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `invalid notifier name "${name}": use lower-case letters, digits, - and _`,
        });
  });
export type Notifiers = z.output<typeof Notifiers>;

const Severity = z.enum(SEVERITIES as unknown as ['info', 'warning', 'critical']);

/** One step of a route's `escalate:` (delivery/escalation-store.ts). */
export const Escalation = z
  .object({
    after: duration({ min: '1s', max: '7d' }),
    notify: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type Escalation = z.output<typeof Escalation>;

/** `routes:` — default routing added to every rule's own `notify:`; every matching route adds its notifiers. */
export const Route = z
  .object({
    match: z
      .object({
        severity: z.array(Severity).min(1).optional(),
        rule: z.array(z.string().min(1)).min(1).optional(),
        labels: z.record(z.string(), z.string()).optional(),
      })
      .strict()
      .default({}),
    notify: z.array(z.string().min(1)).min(1),
    /** Notify these receivers too when an alert of this route is still not acknowledged `after` it fired. */
    escalate: z.array(Escalation).max(10).optional(),
    /** `time_intervals` names: the route's notifications are muted while any of them contains the time. */
    mute_time_intervals: z.array(z.string().min(1)).min(1).optional(),
    /** `time_intervals` names: the route's notifications are muted while none of them contains the time. */
    active_time_intervals: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict();
export type Route = z.output<typeof Route>;
export const Routes = z.array(Route).default([]);

/** `silences:` — maintenance windows and silences; a silenced delivery is recorded, logged and not sent. */
export const Silence = z
  .object({
    rule: z.string().min(1).optional(),
    /** Account id (`0.0.1234`) or name. */
    account: z.string().min(1).optional(),
    labels: z.record(z.string(), z.string()).optional(),
    /** Only for these notifiers; all when absent. */
    notifiers: z.array(z.string().min(1)).optional(),
    starts_at: z.iso.datetime({ offset: true }).optional(),
    ends_at: z.iso.datetime({ offset: true }),
    comment: z.string().default(''),
  })
  .strict()
  .refine((s) => s.rule !== undefined || s.account !== undefined || s.labels !== undefined, {
    message: 'a silence needs at least one of rule, account or labels (a silence of everything is a mistake)',
  });
export type Silence = z.output<typeof Silence>;
export const Silences = z.array(Silence).default([]);

/** Notifier names used by routes or silences that are not configured: config-file/schema.ts reports these. */
export function unknownNotifierRefs(
  notifiers: Notifiers,
  routes: readonly Route[],
  silences: readonly Silence[],
) {
  const known = new Set(Object.keys(notifiers));
  const issues: { path: (string | number)[]; message: string }[] = [];
  routes.forEach((route, i) => {
    route.notify.forEach((name, j) => {
      if (!known.has(name))
        issues.push({ path: ['routes', i, 'notify', j], message: unknownMessage(name, known) });
    });
    route.escalate?.forEach((step, k) =>
      step.notify.forEach((name, j) => {
        if (!known.has(name))
          issues.push({
            path: ['routes', i, 'escalate', k, 'notify', j],
            message: unknownMessage(name, known),
          });
      }),
    );
  });
  silences.forEach((silence, i) =>
    (silence.notifiers ?? []).forEach((name, j) => {
      if (!known.has(name))
        issues.push({ path: ['silences', i, 'notifiers', j], message: unknownMessage(name, known) });
    }),
  );
  return issues;
}

function unknownMessage(name: string, known: Set<string>): string {
  const list = [...known].sort().join(', ') || 'none configured';
  return `unknown notifier "${name}"; configured notifiers: ${list}`;
}
