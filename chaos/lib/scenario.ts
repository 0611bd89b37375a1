// What a chaos scenario is, and the session every scenario reports into: the secrets it used and every log and
// metrics text it produced, for the secret scan (scenario 7).
import type { Figure } from '../../bench/lib/figures.js';
import type { BenchOptions } from '../../bench/lib/options.js';

export interface Session {
  /** label → secret value, e.g. "slack webhook token". */
  readonly secrets: Map<string, string>;
  /** Every log stream and metrics exposition captured, labelled. */
  readonly outputs: { label: string; text: string }[];
}

export interface ChaosContext extends BenchOptions {
  readonly session: Session;
}

export interface Scenario {
  readonly n: number;
  readonly name: string;
  run(ctx: ChaosContext): Promise<Figure[]>;
}

export function newSession(): Session {
  return { secrets: new Map(), outputs: [] };
}
