// Built-in alerts about time: a row dated ahead of this host's clock (the head would have followed it), and a
// jump of the wall clock. Each fires on its latest sighting and resolves after
// self_monitoring.future_record_resolve_after without another, like `sentinel-future-record`; one restored as
// firing across a restart (the sighting itself is not saved) stays firing that long after the start.
import type { ClockStep } from '../tail/head/clock-watch.js';
import type { AheadSighting } from '../tail/head/future-records.js';
import { BUILT_IN_RULES, type Condition } from './built-in-alerts.js';

export interface ClockConditionInputs {
  readonly ahead: AheadSighting | undefined;
  readonly step: ClockStep | undefined;
  /** Keys firing before this check (restored across a restart). */
  readonly firing: ReadonlySet<string>;
  readonly now: number;
  readonly startedAt: number;
  readonly resolveAfterMs: number;
}

export function clockConditions(inputs: ClockConditionInputs): Condition[] {
  const out: Condition[] = [];
  if (holds(inputs, BUILT_IN_RULES.headAhead, inputs.ahead?.atMs)) {
    const seconds = Math.round((inputs.ahead?.aheadMs ?? 0) / 1000);
    out.push({
      key: BUILT_IN_RULES.headAhead,
      ruleId: BUILT_IN_RULES.headAhead,
      severity: 'warning',
      summary: `The query service returned a row ${seconds} s ahead of this host's clock`,
      description:
        `A row with consensus timestamp ${inputs.ahead?.timestamp ?? '(before the restart)'} is ahead of this ` +
        'host’s clock (within tail.max_clock_skew). It was handed to the rules, but moves no head and no cursor ' +
        'until the clock has passed it, so no account skips rows because of it: check the query service, or ' +
        'this host’s clock (NTP) if rows keep coming ahead of it.',
    });
  }
  if (holds(inputs, BUILT_IN_RULES.clockStep, inputs.step?.atMs)) {
    const step = inputs.step;
    const seconds = Math.round((step?.stepMs ?? 0) / 1000);
    out.push({
      key: BUILT_IN_RULES.clockStep,
      ruleId: BUILT_IN_RULES.clockStep,
      severity: 'warning',
      summary: `This host's wall clock jumped ${seconds >= 0 ? 'forward' : 'backward'} by ${Math.abs(seconds)} s`,
      description:
        'The wall clock moved unlike the time that passed (monotonic clock). Polling, backoffs and retries run on ' +
        'the monotonic clock and go on. ' +
        (step && step.heldMs > 0
          ? `The daemon keeps its own time, ${Math.round(step.heldMs / 1000)} s ahead of the wall clock, until ` +
            'the wall clock steps forward again; restart it if the wall clock was wrong before the step. '
          : '') +
        'Check NTP on this host.',
    });
  }
  return out;
}

function holds(inputs: ClockConditionInputs, key: string, atMs: number | undefined): boolean {
  const since = atMs ?? (inputs.firing.has(key) ? inputs.startedAt : undefined);
  return since !== undefined && inputs.now - since <= inputs.resolveAfterMs;
}
