// The rule file schema (strict: a typo is an error). rules/rules.schema.json is generated from it.
import { z } from 'zod';
import { CONDITIONS, CONDITIONS_BY_NAME } from '../conditions/registry.js';
import type { WhenNode } from '../conditions/shared/condition.js';
import { SOURCES, type Source } from '../facts/facts.js';
import { AccountId, HbarAmount } from '../facts/values.js';
import { duration } from '../../config/duration.js';
import { SEVERITIES } from '../alert/alert.js';
import { GROUP_KEY_PATTERN } from '../alert-state/group-key.js';

export const When: z.ZodType<WhenNode> = z.lazy(() =>
  z
    .object(
      Object.fromEntries(
        CONDITIONS.map((c) => [c.name, c.schema(When).optional().meta({ description: c.doc })]),
      ),
    )
    .strict(),
);

// Checked by template-issues.ts against the variables the rule provides, at the position of each tag.
const Template = z.string();

export const Accounts = z.union(
  [
    z.literal('all'),
    z
      .object({
        ids: z.array(AccountId).min(1).optional(),
        names: z.array(z.string()).min(1).optional(),
        labels: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
  ],
  { error: (i) => `expected all or a mapping with ids, names and/or labels, got ${JSON.stringify(i.input)}` },
);
export type Accounts = z.output<typeof Accounts>;

const WINDOW_KINDS = ['count', 'debit_sum', 'credit_sum', 'absent'] as const;
export const Window = z
  .object({
    duration: duration({ min: '1s' }),
    count: z.number().int().min(1).optional(),
    debit_sum: HbarAmount.optional(),
    credit_sum: HbarAmount.optional(),
    absent: z.literal(true).optional(),
  })
  .strict()
  .refine((w) => WINDOW_KINDS.filter((k) => w[k] !== undefined).length === 1, {
    error: 'set exactly one of count, debit_sum, credit_sum or absent (next to duration)',
  });
export type Window = z.output<typeof Window>;

export const Rule = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, {
      error: (i) => `expected a lower-case id like large-debit, got ${JSON.stringify(i.input)}`,
    }),
    description: Template.default(''),
    enabled: z.boolean().default(true),
    source: z.enum(SOURCES).default('transactions'),
    accounts: Accounts.default('all'),
    when: When.default({}),
    window: Window.optional(),
    severity: z.enum(SEVERITIES).default('warning'),
    labels: z.record(z.string(), z.string()).default({}),
    summary: Template,
    notify: z.array(z.string()).default([]),
    throttle: duration().default(3_600_000),
    group_by: z
      .array(
        z.string().regex(GROUP_KEY_PATTERN, {
          error: (i) =>
            `expected account, type, result, payer, node, entity_id or labels.<name>, got ${JSON.stringify(i.input)}`,
        }),
      )
      .default(['account']),
    verify_contracts: z.boolean().default(false),
  })
  .strict()
  .superRefine((rule, ctx) => {
    for (const issue of sourceIssues(rule.when, rule.source, ['when']))
      ctx.addIssue({ code: 'custom', ...issue });
    if (rule.window?.absent && rule.group_by.join() !== 'account')
      ctx.addIssue({
        code: 'custom',
        path: ['group_by'],
        message: 'absence windows group by account: set group_by: [account]',
      });
  });
export type Rule = z.output<typeof Rule>;

export const RuleFile = z.object({ rules: z.array(Rule).min(1, 'expected at least one rule') }).strict();
export type RuleFile = z.output<typeof RuleFile>;

/** Conditions used on a source they cannot read (e.g. `debit` in a rewards rule). */
function sourceIssues(
  node: WhenNode,
  source: Source,
  path: (string | number)[],
): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  for (const [name, value] of Object.entries(node)) {
    const condition = CONDITIONS_BY_NAME.get(name);
    if (!condition) continue;
    if (!condition.sources.includes(source))
      issues.push({
        path: [...path, name],
        message: `${name} does not apply to source ${source}: use it in a rule with source: ${condition.sources.join(' or ')}`,
      });
    if (name === 'not') issues.push(...sourceIssues(value as WhenNode, source, [...path, name]));
    if (name === 'all' || name === 'any')
      (value as WhenNode[]).forEach((child, i) =>
        issues.push(...sourceIssues(child, source, [...path, name, i])),
      );
  }
  return issues;
}
