// The living ledger on HTTP: the colleague's simulator server over a living ledger's store, plus the ground-truth
// routes and the verification route, wrapped so every request first catches the ledger up to the clock and then
// passes through the fault profile.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { defaultSimulatorConfig } from './config.js';
import { startSimulator, type RequestHandler, type RunningSimulator } from './server.js';
import { createLivingLedger, type LivingLedger, type LivingLedgerOptions } from './living-ledger.js';
import { groundTruthRoutes } from './ground-truth-routes.js';
import { FaultProfile } from './faults.js';
import type { ServiceVersion } from './service-version.js';
import { withFaults, type FaultStats } from './faults-handler.js';
import { createVerifyRoute, type VerifyRouteOptions } from './verify.js';

export interface LivingLedgerServerOptions extends LivingLedgerOptions {
  readonly host?: string;
  readonly port?: number;
  /** Default: no faults. Its late_visibility applies unless `lateVisibility` is given. */
  readonly faults?: FaultProfile;
  /** The 60-day binding of /transactions (default on, as on the public mainnet). */
  readonly bindTimestampRange?: boolean;
  /** Verification route options (default mounted at the root: POST /session/verify/etherscan). */
  readonly verify?: VerifyRouteOptions;
  /** Also catch up on a timer, so generation work is spread out (ms; default 0 = only on requests). */
  readonly autoAdvanceMs?: number;
  /** Real-time delay used by slow faults (tests inject one). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The response shapes of which service era (service-version.ts); default '0.129'. */
  readonly serviceVersion?: ServiceVersion;
}

export interface RunningLivingLedger {
  readonly url: string;
  readonly ledger: LivingLedger;
  readonly simulator: RunningSimulator;
  faultStats(): FaultStats;
  close(): Promise<void>;
}

/** Catches the ledger up to the clock before every request, so responses reflect "now". */
function advancing(ledger: LivingLedger, handler: RequestHandler): RequestHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    ledger.advance();
    handler(req, res);
  };
}

export async function startLivingLedger(
  options: LivingLedgerServerOptions = {},
): Promise<RunningLivingLedger> {
  const clock = options.clock ?? Date.now;
  const faults = options.faults ?? FaultProfile.parse({});
  const ledger = createLivingLedger({
    ...options,
    clock,
    lateVisibility: options.lateVisibility ?? faults.late_visibility,
  });
  let faulty: ReturnType<typeof withFaults> | undefined;
  const verifyRoute = createVerifyRoute({ clock, ...options.verify });
  const routes = [
    ...groundTruthRoutes(ledger, {
      extraStats: () => ({
        faults: { profile: faults.name ?? null, ...faulty?.stats() },
        verify: verifyRoute.service.stats,
      }),
    }),
    verifyRoute,
  ];
  const wrap = (handler: RequestHandler): RequestHandler => {
    faulty = withFaults(advancing(ledger, handler), {
      profile: faults,
      seed: String(options.seed ?? 1),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    });
    const faultyHandler = faulty.handler;
    return (req, res) => {
      Promise.resolve(faultyHandler(req, res)).catch(() => res.destroy());
    };
  };
  const simulator = await startSimulator({
    store: ledger.store,
    config: defaultSimulatorConfig({
      bindTimestampRange: options.bindTimestampRange ?? true,
      now: () => timestampFromMillis(clock()),
      serviceVersion: options.serviceVersion ?? '0.129',
    }),
    extraRoutes: routes,
    wrap,
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
  });
  const timer =
    options.autoAdvanceMs && options.autoAdvanceMs > 0
      ? setInterval(() => ledger.advance(), options.autoAdvanceMs).unref()
      : undefined;
  return {
    url: simulator.url,
    ledger,
    simulator,
    faultStats: () => faulty?.stats() ?? { requests: 0, byKind: {} },
    close: async () => {
      if (timer) clearInterval(timer);
      await simulator.close();
    },
  };
}
