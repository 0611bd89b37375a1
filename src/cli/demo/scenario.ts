// What happens to the demo's watched accounts, on top of the living ledger's random traffic: one scripted
// transaction every few seconds, each one something an example rule is there to catch. Results are explicit:
// otherwise the generator fails a random 5 % of them.
import type { InjectSpec } from '@ledger-sentinel/simulator/traffic-inject';

const HBAR = 100_000_000n;

export const DEMO_SCENARIO: readonly InjectSpec[] = [
  {
    payer: '0.0.1003',
    result: 'SUCCESS',
    transfers: [
      { account: '0.0.1003', amount: -25_000n * HBAR },
      { account: '0.0.1001', amount: 25_000n * HBAR },
    ],
    memo: 'quarterly rebalance',
  },
  { payer: '0.0.1004', result: 'INSUFFICIENT_PAYER_BALANCE' },
  { type: 'CONTRACTCALL', payer: '0.0.1006', result: 'SUCCESS', traceDepth: 7 },
  {
    payer: '0.0.1003',
    result: 'SUCCESS',
    transfers: [
      { account: '0.0.1003', amount: -50n * HBAR },
      { account: '0.0.1150', amount: 50n * HBAR },
    ],
  },
  { payer: '0.0.1005', result: 'SUCCESS', fee: 7n * HBAR },
  { type: 'CRYPTOAPPROVEALLOWANCE', payer: '0.0.1003', result: 'SUCCESS' },
  { type: 'CONTRACTCREATEINSTANCE', payer: '0.0.1006', result: 'SUCCESS' },
];

export interface ScenarioTarget {
  inject(spec: InjectSpec): void;
}

/** Injects the next scripted transaction every intervalMs, round and round, until stopped. */
export function playScenario(target: ScenarioTarget, intervalMs: number): () => void {
  let next = 0;
  const step = () => {
    target.inject(DEMO_SCENARIO[next % DEMO_SCENARIO.length] as InjectSpec);
    next += 1;
  };
  step();
  const timer = setInterval(step, intervalMs);
  return () => clearInterval(timer);
}
