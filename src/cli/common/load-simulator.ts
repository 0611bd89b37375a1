// The simulator is its own workspace package (packages/simulator), which the Docker image does not ship: `demo`
// and `simulate` load it when they run, so every other command works without it, and say so when it is missing.
import type * as Faults from '@ledger-sentinel/simulator/faults';
import type * as FixtureValues from '@ledger-sentinel/simulator/fixture-values';
import type * as Fixtures from '@ledger-sentinel/simulator/fixtures';
import type * as LivingLedger from '@ledger-sentinel/simulator/living-ledger';
import type * as LivingLedgerServer from '@ledger-sentinel/simulator/living-ledger-server';
import type * as Server from '@ledger-sentinel/simulator/server';
import type * as ServiceVersion from '@ledger-sentinel/simulator/service-version';

export type Simulator = typeof Faults &
  typeof FixtureValues &
  typeof Fixtures &
  typeof LivingLedger &
  typeof LivingLedgerServer &
  typeof Server &
  typeof ServiceVersion;

export const SIMULATOR_MISSING =
  'the simulator (@ledger-sentinel/simulator) is not installed here: the Docker image does not ship it. ' +
  'Run `npm run demo` (or `npm run build` and then this command) from a clone of the repository.';

/** The simulator's modules, or SIMULATOR_MISSING when the package (or its build) is not there. */
export async function loadSimulator(
  load: () => Promise<Simulator> = importSimulator,
): Promise<Simulator | string> {
  try {
    return await load();
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') return SIMULATOR_MISSING;
    throw err;
  }
}

async function importSimulator(): Promise<Simulator> {
  const modules = await Promise.all([
    import('@ledger-sentinel/simulator/faults'),
    import('@ledger-sentinel/simulator/fixture-values'),
    import('@ledger-sentinel/simulator/fixtures'),
    import('@ledger-sentinel/simulator/living-ledger'),
    import('@ledger-sentinel/simulator/living-ledger-server'),
    import('@ledger-sentinel/simulator/server'),
    import('@ledger-sentinel/simulator/service-version'),
  ]);
  return Object.assign({}, ...modules) as Simulator;
}
