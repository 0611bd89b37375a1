// A value the service computes from "now" in a spec case with a fake clock, compared as that instant.
import { fakeTimeInput } from '@ledger-sentinel/simulator/fixture-values';
import type { SpecCase } from './spec-cases.js';

/**
 * Upstream runs a case with `features.fakeTime` on a fake clock that goes on advancing with real time from that
 * instant (its integration template sets sinon's shouldAdvanceTime), so a value the service computes from "now"
 * (the 60-day binding's bound, now - 60 days, in a next link) lies somewhere in the run's first seconds after
 * the instant fakeTime gives: 20 ms later in one recorded case. The simulator uses fakeTime exactly. In both
 * bodies, a timestamp within 5 s after fakeTime, or after fakeTime - 60 days, reads as `<now>` (`<now-60d>`);
 * every other value is compared exactly.
 */
const SIXTY_DAYS_NS = 60n * 86_400n * 1_000_000_000n;

export function nowAsPlaceholder(body: unknown, specCase: SpecCase): unknown {
  const features = specCase.setup.features as { fakeTime?: string | number } | undefined;
  const fake = fakeTimeInput(features?.fakeTime);
  if (fake === null) return body;
  const anchors: ReadonlyArray<readonly [bigint, string]> = [
    [fake, '<now>'],
    [fake - SIXTY_DAYS_NS, '<now-60d>'],
  ];
  const placeholder = (ns: bigint) => anchors.find(([at]) => ns >= at && ns <= at + 5_000_000_000n)?.[1];
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string')
      return value.replace(
        /(\d{1,12})\.(\d{9})/g,
        (whole, s: string, n: string) => placeholder(BigInt(s) * 1_000_000_000n + BigInt(n)) ?? whole,
      );
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(body);
}
