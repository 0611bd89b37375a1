// Misbehaving on purpose: a fault profile says, per route, how often a request gets 429 + Retry-After, 500, 503,
// a slow answer, a connection reset mid-body, malformed or truncated JSON; and how often rows of a record file
// become visible late (docs/ledger-api.md §17). Profiles are plain JSON/YAML-able objects; `none`, `flaky`, `chaos` and `late`
// are presets. Every decision is drawn from a seeded generator per route, so a run can be replayed exactly.
import { z } from 'zod';
import { createRng, type Rng } from './rng.js';

const Probability = z.number().min(0).max(1);
const Millis = z.number().int().min(0);

export const RouteFaults = z
  .object({
    rate_limit: Probability.default(0),
    retry_after_seconds: z.number().int().min(0).default(1),
    server_error: Probability.default(0),
    unavailable: Probability.default(0),
    reset: Probability.default(0),
    malformed: Probability.default(0),
    truncated: Probability.default(0),
    slow: Probability.default(0),
    slow_ms: Millis.default(1500),
  })
  .strict();
export type RouteFaults = z.output<typeof RouteFaults>;

/** Routes a profile can name; `*` applies to every faultable route without its own entry. */
export const FAULT_ROUTES = ['transactions', 'rewards', 'actions', 'verify', 'other', '*'] as const;
export type FaultRoute = (typeof FAULT_ROUTES)[number];

export const LateVisibility = z
  .object({
    /** Share of the rows of each record file that are held back. */
    fraction: Probability.default(0),
    /** How long a held-back row stays invisible after its file became visible. */
    delay_ms: Millis.default(10_000),
  })
  .strict();
export type LateVisibility = z.output<typeof LateVisibility>;

export const FaultProfile = z
  .object({
    name: z.string().optional(),
    routes: z.partialRecord(z.enum(FAULT_ROUTES), RouteFaults).default({}),
    late_visibility: LateVisibility.default({ fraction: 0, delay_ms: 10_000 }),
  })
  .strict();
export type FaultProfile = z.output<typeof FaultProfile>;
export type FaultProfileInput = z.input<typeof FaultProfile>;

export const FAULT_PRESETS: Readonly<Record<string, FaultProfileInput>> = {
  none: { name: 'none' },
  flaky: {
    name: 'flaky',
    routes: {
      '*': { rate_limit: 0.05, retry_after_seconds: 1, unavailable: 0.02, slow: 0.05, slow_ms: 500 },
    },
    late_visibility: { fraction: 0.02, delay_ms: 10_000 },
  },
  chaos: {
    name: 'chaos',
    routes: {
      '*': {
        rate_limit: 0.1,
        retry_after_seconds: 2,
        server_error: 0.05,
        unavailable: 0.05,
        reset: 0.05,
        malformed: 0.03,
        truncated: 0.03,
        slow: 0.1,
        slow_ms: 2000,
      },
    },
    late_visibility: { fraction: 0.1, delay_ms: 30_000 },
  },
  late: { name: 'late', late_visibility: { fraction: 0.1, delay_ms: 20_000 } },
};

/** A preset name, or a profile object (e.g. parsed from YAML/JSON); throws a readable error when invalid. */
export function resolveFaultProfile(input: string | unknown): FaultProfile {
  if (typeof input === 'string') {
    const preset = Object.hasOwn(FAULT_PRESETS, input) ? FAULT_PRESETS[input] : undefined;
    if (!preset) {
      const names = Object.keys(FAULT_PRESETS).join(', ');
      throw new Error(`unknown fault profile "${input}": use one of ${names}, or a JSON/YAML profile file`);
    }
    return FaultProfile.parse(preset);
  }
  const parsed = FaultProfile.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid fault profile: ${issues.join('; ')}`);
  }
  return parsed.data;
}

export type FaultKind =
  'rate_limit' | 'server_error' | 'unavailable' | 'reset' | 'malformed' | 'truncated' | null;

export interface FaultDecision {
  readonly kind: FaultKind;
  /** Delay before answering, ms (0 = none). */
  readonly delayMs: number;
  /** A uniform draw in [0, 1) for shaping the fault (cut position, corruption pattern). */
  readonly shape: number;
  readonly retryAfterSeconds: number;
}

const ORDERED_KINDS = [
  'rate_limit',
  'server_error',
  'unavailable',
  'reset',
  'malformed',
  'truncated',
] as const;

/** Draws decisions per route; each request consumes exactly three draws, whatever the outcome. */
export function createFaultDecider(
  profile: FaultProfile,
  seed: number | string,
): (route: FaultRoute) => FaultDecision {
  const rngs = new Map<FaultRoute, Rng>();
  const root = createRng(`faults:${seed}`);
  return (route) => {
    let rng = rngs.get(route);
    if (!rng) {
      rng = root.fork(route);
      rngs.set(route, rng);
    }
    const faults = profile.routes[route] ?? profile.routes['*'];
    const pick = rng.next();
    const slowDraw = rng.next();
    const shape = rng.next();
    if (!faults) return { kind: null, delayMs: 0, shape, retryAfterSeconds: 0 };
    let kind: FaultKind = null;
    let edge = 0;
    for (const candidate of ORDERED_KINDS) {
      edge += faults[candidate];
      if (pick < edge) {
        kind = candidate;
        break;
      }
    }
    const delayMs = slowDraw < faults.slow ? faults.slow_ms : 0;
    return { kind, delayMs, shape, retryAfterSeconds: faults.retry_after_seconds };
  };
}
