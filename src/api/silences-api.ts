// GET/POST /api/v1/silences and DELETE /api/v1/silences/{id}: Alertmanager's silence model over the durable
// silence store (delivery/silence-store.ts). Config-file silences are listed too, read-only, as `config:N`.
import { z } from 'zod';
import { compileMatchers, isErrors, matcherOp, parseMatcher, type Matcher } from '../delivery/matchers.js';
import type { Silence } from '../notifiers/schema.js';
import {
  MAX_LIVE_SILENCES,
  silenceState,
  type SilenceStore,
  type StoredSilence,
} from '../delivery/silence-store.js';
import { unknownLabelMessage } from '../delivery/known-labels.js';
import { HttpError } from './http-io.js';

/** Alertmanager's matcher object, or its text form `name=~"value"`. */
const MatcherBody = z.union([
  z.strictObject({
    name: z.string().min(1).max(100),
    value: z.string().max(1000),
    isRegex: z.boolean().default(false),
    isEqual: z.boolean().default(true),
  }),
  z.string().min(1).max(1100),
]);

export const SilenceBody = z.strictObject({
  matchers: z.array(MatcherBody).min(1).max(32),
  startsAt: z.iso.datetime({ offset: true }).optional(),
  endsAt: z.iso.datetime({ offset: true }),
  createdBy: z.string().trim().min(1).max(200),
  comment: z.string().max(2000).default(''),
});

export interface SilenceJson {
  readonly id: string;
  readonly matchers: { name: string; value: string; isRegex: boolean; isEqual: boolean }[];
  readonly startsAt: string;
  readonly endsAt: string;
  readonly createdBy: string;
  readonly comment: string;
  readonly updatedAt?: string;
  readonly status: { state: 'pending' | 'active' | 'expired' };
  /** Config-file silences: change them in the config file. */
  readonly readOnly: boolean;
  /** Config-file silences only: the notifiers it applies to (all when absent). */
  readonly notifiers?: readonly string[];
}

/**
 * Validates and stores a new silence; 400 on a matcher that cannot work, including one on a label no alert
 * carries (`known`: known-labels.ts), which could only ever match "" — `constructor=~".+"` once matched everything.
 */
export function addSilence(
  store: SilenceStore,
  body: z.output<typeof SilenceBody>,
  now: number,
  known: readonly string[],
): StoredSilence {
  const matchers = body.matchers.map(toMatcher);
  const compiled = compileMatchers(matchers);
  if (isErrors(compiled)) throw new HttpError(400, `invalid matcher: ${compiled.join('; ')}`);
  const unknown = matchers.flatMap((m) => unknownLabelMessage(m.name, known) ?? []);
  if (unknown.length) throw new HttpError(400, `invalid matcher: ${unknown.join('; ')}`);
  if (compiled.every((m) => m.testValue('')))
    throw new HttpError(
      400,
      'at least one matcher must not match the empty string (a silence of everything is a mistake)',
    );
  const startsAt = body.startsAt === undefined ? now : Math.max(now, Date.parse(body.startsAt));
  const endsAt = Date.parse(body.endsAt);
  if (endsAt <= startsAt) throw new HttpError(400, 'endsAt must be after startsAt (and after now)');
  const live = store.counts(now);
  if (live.active + live.pending >= MAX_LIVE_SILENCES)
    throw new HttpError(
      409,
      `${MAX_LIVE_SILENCES} silences are active or pending already; expire some first`,
    );
  return store.add({ matchers, startsAt, endsAt, createdBy: body.createdBy, comment: body.comment });
}

export function silenceJson(s: StoredSilence, now: number): SilenceJson {
  return {
    id: s.id,
    matchers: s.matchers.map(toJsonMatcher),
    startsAt: new Date(s.startsAt).toISOString(),
    endsAt: new Date(s.endsAt).toISOString(),
    createdBy: s.createdBy,
    comment: s.comment,
    updatedAt: new Date(s.updatedAt).toISOString(),
    status: { state: silenceState(s, now) },
    readOnly: false,
  };
}

/** A config-file silence in the API's shape: rule, account and labels as `=` matchers. */
export function configSilenceJson(s: Silence, index: number, now: number): SilenceJson {
  const matchers: Matcher[] = [
    ...(s.rule === undefined ? [] : [{ name: 'rule', op: '=' as const, value: s.rule }]),
    ...(s.account === undefined ? [] : [{ name: 'account', op: '=' as const, value: s.account }]),
    ...Object.entries(s.labels ?? {}).map(([name, value]) => ({ name, op: '=' as const, value })),
  ];
  const startsAt = s.starts_at === undefined ? 0 : Date.parse(s.starts_at);
  const endsAt = Date.parse(s.ends_at);
  return {
    id: `config:${index}`,
    matchers: matchers.map(toJsonMatcher),
    startsAt: new Date(startsAt).toISOString(),
    endsAt: new Date(endsAt).toISOString(),
    createdBy: 'config file',
    comment: s.comment,
    status: { state: silenceState({ startsAt, endsAt }, now) },
    readOnly: true,
    ...(s.notifiers ? { notifiers: s.notifiers } : {}),
  };
}

function toMatcher(m: z.output<typeof MatcherBody>): Matcher {
  if (typeof m !== 'string') {
    return { name: m.name, op: matcherOp(m.isRegex, m.isEqual), value: m.value };
  }
  const parsed = parseMatcher(m);
  if (typeof parsed === 'string') throw new HttpError(400, `invalid matcher: ${parsed}`);
  return parsed;
}

function toJsonMatcher(m: Matcher): SilenceJson['matchers'][number] {
  return { name: m.name, value: m.value, isRegex: m.op.endsWith('~'), isEqual: !m.op.startsWith('!') };
}
