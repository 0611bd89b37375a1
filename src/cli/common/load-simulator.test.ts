import { describe, expect, it } from 'vitest';
import { SIMULATOR_MISSING, loadSimulator } from './load-simulator.js';

/** What Node's loader throws for a package that is not installed (the Docker image has no simulator). */
function moduleNotFound(): Error {
  return Object.assign(new Error("Cannot find package '@ledger-sentinel/simulator'"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('loadSimulator', () => {
  it('loads the workspace package in a clone', async () => {
    const sim = await loadSimulator();

    expect(typeof sim).toBe('object');
    expect(typeof (sim as Exclude<typeof sim, string>).startLivingLedger).toBe('function');
    expect((sim as Exclude<typeof sim, string>).SERVICE_VERSIONS).toContain('current');
  });

  it('says the simulator is not installed, and where to run it, when the package is missing', async () => {
    const result = await loadSimulator(() => Promise.reject(moduleNotFound()));

    expect(result).toBe(SIMULATOR_MISSING);
    expect(SIMULATOR_MISSING).toContain('not installed');
    expect(SIMULATOR_MISSING).toContain('npm run demo');
  });

  it('lets any other failure through (a broken simulator is not a missing one)', async () => {
    const broken = new SyntaxError('Unexpected token');

    await expect(loadSimulator(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
