// What a hostile world does to the daemon in one property run, as data: fast-check generates a fault plan, the
// fake query service, Slack and SMTP play it back request by request, and a failing plan replays from its seed
// and path. Each kind can be switched off (FaultKind lists), so a run can be narrowed to the faults a fix covers.
import fc from 'fast-check';

/** Every fault kind the harness can inject: query-service kinds, then the Slack and SMTP ones. */
export const FAULT_KINDS = [
  'delay',
  'trickle',
  'reset',
  'status',
  'duplicate',
  'reorder',
  'future',
  'near-future',
  'proto-keys',
  'malformed',
  'endless',
  'slack-delay',
  'slack-status',
  'slack-reset',
  'smtp-delay',
  'smtp-tempfail',
  'smtp-disconnect',
  'clock-step',
  'process-pause',
] as const;
/**
 * Kinds only the PostgreSQL world (pg-fault-world.ts) can play: another connection holding some of the daemon's
 * tables under `LOCK TABLE … IN ACCESS EXCLUSIVE MODE`. The SQLite world refuses a plan that holds one.
 */
export const POSTGRES_FAULT_KINDS = ['table-lock'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number] | (typeof POSTGRES_FAULT_KINDS)[number];

/** The PostgreSQL world's `ha.lease_ttl`: table locks are drawn both shorter and longer than it. */
export const LOCK_WORLD_LEASE_TTL_MS = 3_000;

/**
 * Tables of the daemon's PostgreSQL state a lock may hold: what every replicated batch writes (the cursor, the
 * records seen, rule state, the outbox, the commit audit) and the lease row itself (renewals and takeovers wait).
 */
export const LOCKABLE_TABLES = [
  'outbox_delivery',
  'outbox_alert',
  'tail_cursor',
  'tail_seen',
  'rule_group',
  'sentinel_commits',
  'sentinel_lease',
] as const;

/** How a 429/5xx says when to come back: seconds, an HTTP-date, garbage, a huge number, or nothing. */
export type RetryAfter =
  | { readonly kind: 'none' }
  | { readonly kind: 'seconds'; readonly value: number }
  | { readonly kind: 'date'; readonly offsetS: number }
  | { readonly kind: 'garbage'; readonly text: string }
  | { readonly kind: 'huge'; readonly value: string };

export type QueryFault =
  | { readonly kind: 'none' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'trickle'; readonly chunkBytes: number; readonly everyMs: number }
  | { readonly kind: 'reset'; readonly cut: number }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter: RetryAfter }
  | { readonly kind: 'duplicate'; readonly copies: number }
  | {
      readonly kind: 'reorder';
      readonly order: 'reversed' | 'shuffled' | 'descending';
      readonly seed: number;
    }
  | { readonly kind: 'future'; readonly yearsAhead: number }
  /** A record of the stream dated inside tail.max_clock_skew (default 5 m): it must move no cursor past now. */
  | { readonly kind: 'near-future'; readonly secondsAhead: number }
  /** Every record of the page carries `__proto__`, `constructor`, `prototype` … as its own keys, nested too. */
  | { readonly kind: 'proto-keys' }
  | { readonly kind: 'malformed'; readonly shape: number }
  | { readonly kind: 'endless' };

export type SlackFault =
  | { readonly kind: 'none' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter: RetryAfter }
  | { readonly kind: 'reset' };

export type SmtpFault =
  | { readonly kind: 'none' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'tempfail'; readonly code: number }
  | { readonly kind: 'disconnect' };

/** The daemon's wall clock, set this many seconds off real time (libfaketime); the monotonic clock is left alone. */
export type ClockFault = { readonly kind: 'none' } | { readonly kind: 'step'; readonly offsetS: number };

/** The daemon process stopped (SIGSTOP) for this long, then continued (SIGCONT): a paused pod, a frozen VM. */
export type ProcessFault = { readonly kind: 'none' } | { readonly kind: 'pause'; readonly ms: number };

/**
 * A second connection takes `LOCK TABLE <tables> IN ACCESS EXCLUSIVE MODE` `afterMs` after a pair of markers and
 * holds it `ms` (a migration, a `VACUUM FULL`, an operator's open transaction): below the lease TTL the leader
 * waits, above it the leader self-fences and exits, and another replica takes over once the tables are free.
 */
export type LockFault =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'lock';
      readonly tables: readonly string[];
      readonly ms: number;
      readonly afterMs: number;
    };

export interface FaultPlan {
  /** Played in a cycle, one per query-service request of a faulted stream, until the world heals (at least once through). */
  readonly query: readonly QueryFault[];
  /** One per Slack request, in a cycle, until the world heals. */
  readonly slack: readonly SlackFault[];
  /** One per SMTP connection and one per message, in a cycle, until the world heals. */
  readonly smtp: readonly SmtpFault[];
  /** One per pair of markers, in a cycle, until the world heals (then real time again). */
  readonly clock: readonly ClockFault[];
  /** One per pair of markers, in a cycle, until the world heals. */
  readonly process: readonly ProcessFault[];
  /** One per pair of markers, in a cycle, until the world heals; a lock still held then runs its full length. */
  readonly locks: readonly LockFault[];
  /** Seeds the living ledger's background traffic, so a replayed plan sees the same ledger. */
  readonly ledgerSeed: number;
}

/** The number of malformed-record shapes the fake query service knows (malformedRecord in hostile-records.ts). */
export const MALFORMED_SHAPES = 6;

/** Sink delays stay below the notifiers' timeouts: a slow 200 past the timeout is a resend, not a fault. */
const SINK_DELAY_MAX_MS = 2_000;

const GARBAGE_RETRY_AFTER = ['soon', '-1', '1.5', '', 'NaN', 'Wed, 99 Foo 2026', '0x10', '1e3'];
const HUGE_RETRY_AFTER = ['3600', '86400', '2147483648', '99999999999999999999'];

export function retryAfter(): fc.Arbitrary<RetryAfter> {
  return fc.oneof(
    fc.constant<RetryAfter>({ kind: 'none' }),
    fc.integer({ min: 0, max: 5 }).map((value): RetryAfter => ({ kind: 'seconds', value })),
    fc.integer({ min: -30, max: 10 }).map((offsetS): RetryAfter => ({ kind: 'date', offsetS })),
    fc.constantFrom(...GARBAGE_RETRY_AFTER).map((text): RetryAfter => ({ kind: 'garbage', text })),
    fc.constantFrom(...HUGE_RETRY_AFTER).map((value): RetryAfter => ({ kind: 'huge', value })),
  );
}

/** The header value, or undefined for none; `nowMs` anchors an HTTP-date. */
export function retryAfterHeader(value: RetryAfter, nowMs: number): string | undefined {
  switch (value.kind) {
    case 'none':
      return undefined;
    case 'seconds':
      return String(value.value);
    case 'date':
      return new Date(nowMs + value.offsetS * 1000).toUTCString();
    case 'garbage':
      return value.text;
    case 'huge':
      return value.value;
  }
}

function queryFault(kind: FaultKind): fc.Arbitrary<QueryFault> | undefined {
  switch (kind) {
    case 'delay':
      return fc.integer({ min: 0, max: 3_000 }).map((ms) => ({ kind: 'delay', ms }) as const);
    case 'trickle':
      return fc
        .record({ chunkBytes: fc.integer({ min: 1, max: 64 }), everyMs: fc.integer({ min: 20, max: 300 }) })
        .map((r) => ({ kind: 'trickle', ...r }) as const);
    case 'reset':
      return fc.double({ min: 0, max: 1, noNaN: true }).map((cut) => ({ kind: 'reset', cut }) as const);
    case 'status':
      return fc
        .record({ status: fc.constantFrom(429, 500, 502, 503, 504), retryAfter: retryAfter() })
        .map((r) => ({ kind: 'status', ...r }) as const);
    case 'duplicate':
      return fc.integer({ min: 2, max: 3 }).map((copies) => ({ kind: 'duplicate', copies }) as const);
    case 'reorder':
      return fc
        .record({
          order: fc.constantFrom('reversed' as const, 'shuffled' as const, 'descending' as const),
          seed: fc.nat(),
        })
        .map((r) => ({ kind: 'reorder', ...r }) as const);
    case 'future':
      return fc.integer({ min: 1, max: 300 }).map((yearsAhead) => ({ kind: 'future', yearsAhead }) as const);
    case 'near-future':
      return fc
        .integer({ min: 1, max: 240 })
        .map((secondsAhead) => ({ kind: 'near-future', secondsAhead }) as const);
    case 'malformed':
      return fc
        .integer({ min: 0, max: MALFORMED_SHAPES - 1 })
        .map((shape) => ({ kind: 'malformed', shape }) as const);
    case 'endless':
      return fc.constant({ kind: 'endless' } as const);
    case 'proto-keys':
      return fc.constant({ kind: 'proto-keys' } as const);
    default:
      return undefined;
  }
}

function slackFault(kind: FaultKind): fc.Arbitrary<SlackFault> | undefined {
  if (kind === 'slack-delay')
    return fc.integer({ min: 0, max: SINK_DELAY_MAX_MS }).map((ms) => ({ kind: 'delay', ms }) as const);
  if (kind === 'slack-status')
    return fc
      .record({ status: fc.constantFrom(429, 500, 503), retryAfter: retryAfter() })
      .map((r) => ({ kind: 'status', ...r }) as const);
  if (kind === 'slack-reset') return fc.constant({ kind: 'reset' } as const);
  return undefined;
}

function smtpFault(kind: FaultKind): fc.Arbitrary<SmtpFault> | undefined {
  if (kind === 'smtp-delay')
    return fc.integer({ min: 0, max: SINK_DELAY_MAX_MS }).map((ms) => ({ kind: 'delay', ms }) as const);
  if (kind === 'smtp-tempfail')
    return fc.constantFrom(421, 450, 451, 452).map((code) => ({ kind: 'tempfail', code }) as const);
  if (kind === 'smtp-disconnect') return fc.constant({ kind: 'disconnect' } as const);
  return undefined;
}

function clockFault(kind: FaultKind): fc.Arbitrary<ClockFault> | undefined {
  if (kind !== 'clock-step') return undefined;
  // Either way, from a few seconds (above the 2 s step tolerance) to an hour.
  const seconds = fc.oneof(fc.integer({ min: 5, max: 3_600 }), fc.integer({ min: -3_600, max: -5 }));
  return seconds.map((offsetS) => ({ kind: 'step', offsetS }) as const);
}

function processFault(kind: FaultKind): fc.Arbitrary<ProcessFault> | undefined {
  if (kind !== 'process-pause') return undefined;
  // Longer than a poll interval and a delivery round, shorter than the clean streams' 20 s bound.
  return fc.integer({ min: 500, max: 5_000 }).map((ms) => ({ kind: 'pause', ms }) as const);
}

function lockFault(kind: FaultKind): fc.Arbitrary<LockFault> | undefined {
  if (kind !== 'table-lock') return undefined;
  const ttl = LOCK_WORLD_LEASE_TTL_MS;
  // Below the lease TTL (the leader waits it out) or well above it (up to 3 TTLs: the leader is fenced and exits).
  const ms = fc.oneof(fc.integer({ min: 200, max: ttl - 300 }), fc.integer({ min: ttl + 500, max: 3 * ttl }));
  return fc
    .record({
      tables: fc.subarray([...LOCKABLE_TABLES], { minLength: 1 }),
      ms,
      afterMs: fc.integer({ min: 0, max: 1_000 }),
    })
    .map((r) => ({ kind: 'lock', ...r }) as const);
}

/** A cycle of faults drawn from the enabled kinds, with clean answers mixed in (so some requests get through). */
function cycle<T extends { readonly kind: string }>(
  kinds: readonly FaultKind[],
  pick: (kind: FaultKind) => fc.Arbitrary<T> | undefined,
  none: T,
  maxLength: number,
): fc.Arbitrary<T[]> {
  const choices = kinds.map(pick).filter((a): a is fc.Arbitrary<T> => a !== undefined);
  const one = choices.length === 0 ? fc.constant(none) : fc.oneof(fc.constant(none), ...choices);
  const plans = fc.array(one, { minLength: 1, maxLength });
  // A plan with kinds enabled injects at least one fault, or the run would prove nothing.
  return choices.length === 0 ? plans : plans.filter((p) => p.some((f) => f.kind !== 'none'));
}

/** The arbitrary of fault plans using only `kinds` (default: every kind). */
export function faultPlan(kinds: readonly FaultKind[] = FAULT_KINDS): fc.Arbitrary<FaultPlan> {
  return fc
    .record({
      query: cycle(kinds, queryFault, { kind: 'none' } as QueryFault, 12),
      slack: cycle(kinds, slackFault, { kind: 'none' } as SlackFault, 6),
      smtp: cycle(kinds, smtpFault, { kind: 'none' } as SmtpFault, 6),
      clock: cycle(kinds, clockFault, { kind: 'none' } as ClockFault, 4),
      process: cycle(kinds, processFault, { kind: 'none' } as ProcessFault, 4),
      locks: cycle(kinds, lockFault, { kind: 'none' } as LockFault, 3),
      ledgerSeed: fc.nat(),
    })
    .map(knownLimit);
}

/**
 * A known limit, not a fault the daemon defends against: while this host's clock runs ahead of real time by X, a
 * row dated up to X ahead is not recognised as ahead of it (docs/tailing.md, "Clock steps"). So a plan with
 * near-future rows steps the clock back only.
 */
function knownLimit(plan: FaultPlan): FaultPlan {
  if (!plan.query.some((f) => f.kind === 'near-future')) return plan;
  const back = (f: ClockFault): ClockFault =>
    f.kind === 'step' ? { kind: 'step', offsetS: -Math.abs(f.offsetS) } : f;
  return { ...plan, clock: plan.clock.map(back) };
}

/** "status×3 trickle×1 …": which kinds a plan holds, for the report of a run. */
export function describePlan(plan: FaultPlan): string {
  const counts = new Map<string, number>();
  const add = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  plan.query.forEach((f) => add(f.kind));
  plan.slack.forEach((f) => add(`slack-${f.kind}`));
  plan.smtp.forEach((f) => add(`smtp-${f.kind}`));
  plan.clock.forEach((f) => add(`clock-${f.kind}`));
  plan.process.forEach((f) => add(`process-${f.kind}`));
  plan.locks.forEach((f) =>
    add(f.kind === 'lock' ? (f.ms > LOCK_WORLD_LEASE_TTL_MS ? 'lock>ttl' : 'lock<ttl') : 'lock-none'),
  );
  return [...counts]
    .filter(([k]) => !k.endsWith('none'))
    .map(([k, n]) => `${k}×${n}`)
    .join(' ');
}
