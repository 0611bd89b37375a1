// The tail part of a runtime: the query-service and verification clients, the pipeline handler and the poll
// loop. It restarts only when `ledger`, `tail` or `verification` change; a new watch list is swapped into the
// running loop (tail/loop/live-tailer.ts), so unchanged streams keep polling on the same schedule.
import { createCallTraces } from '../enrich/call-trace.js';
import { createContractVerification } from '../enrich/verification.js';
import type { LedgerClient } from '../ledger/client.js';
import { clientTailSource } from '../tail/source/client-source.js';
import type { AheadSighting, FutureSighting } from '../tail/head/future-records.js';
import type { Quarantine } from '../tail/quarantine/quarantine-store.js';
import type { RecordHandler } from '../tail/streams/record-handler.js';
import { createTailer } from '../tail/tailer.js';
import type { Tailer } from '../tail/tailer-types.js';
import { ledgerClientFor, verifyClientFor } from './clients.js';
import { createLiveTailer } from '../tail/loop/live-tailer.js';
import type { Loaded } from './load-all.js';
import { createPipelineHandler } from '../pipeline/pipeline.js';
import type { Shared, TailPart, TailPartDeps } from './runtime-parts.js';
import { runTailLoop } from '../tail/loop/daemon-loop.js';
import { verifyFor } from '../enrich/verify-adapter.js';
import { createTokenFacts, runTokenRefresh, TOKEN_REFRESH_MS } from '../tokens/token-facts.js';

export function startTailPart(shared: Shared, loaded: Loaded, deps: TailPartDeps): TailPart {
  const { config } = loaded;
  const { log, metrics } = shared;
  const client = ledgerClientFor(config, log, metrics);
  const verifyClient = verifyClientFor(config, log, metrics);
  const controller = new AbortController();
  // Configured tokens and those the rules decide by are read at start; others when an alerting record moves them.
  const tokens = createTokenFacts({
    // A background refresh waits behind the tail's polls (priority 0 and up) in the request budget.
    fetch: (id, { signal, background }) =>
      client.getToken(id, { ...(signal ? { signal } : {}), priority: background ? -1 : 0 }),
    configured: [...new Set([...config.tokens.map((t) => t.id), ...shared.engines.current().factsTokens])],
    names: new Map(config.tokens.flatMap((t) => (t.name === undefined ? [] : [[t.id, t.name] as const]))),
    log: log.child({ component: 'token-facts' }),
    metrics,
    clock: shared.clock,
  });
  const refresh = runTokenRefresh(tokens, TOKEN_REFRESH_MS, shared.sleep, controller.signal);
  const handler = createPipelineHandler({
    engines: shared.engines,
    repo: shared.repo,
    traces: createCallTraces({ listActions: (id) => client.listActions(id, { order: 'asc', limit: 100 }) }),
    verification: createContractVerification({ verify: verifyFor(verifyClient, config) }),
    tokens,
    outbox: shared.outbox,
    routes: deps.routes,
    metrics,
    onAlerts: deps.poke,
    onMatches: (counts) => shared.ruleActivity.matched(counts),
  });
  const tailer = createLiveTailer(tailerFor(shared, loaded, client, handler, deps.quarantine));
  const loop = startTailLoop(shared, loaded, tailer, controller.signal);
  log.info({ accounts: loaded.accounts.length }, 'tail started');
  return {
    tailer,
    swapAccounts: (next) => tailer.swap(tailerFor(shared, next, client, handler, deps.quarantine)),
    async stop() {
      controller.abort();
      await loop;
      await refresh;
      await client.close();
      await verifyClient?.close();
    },
  };
}

function tailerFor(
  shared: Shared,
  loaded: Loaded,
  client: LedgerClient,
  handler: RecordHandler<unknown>,
  quarantine: Quarantine,
): Tailer {
  const { store, metrics, log, clock, monotonic, random } = shared;
  const source = clientTailSource(client);
  const { accounts, config } = loaded;
  const options = {
    store,
    source,
    handler,
    accounts,
    config: config.tail,
    metrics,
    logger: log,
    clock,
    monotonic,
    random,
    quarantine,
    onFutureRecord: (sighting: FutureSighting) => (shared.health.lastFuture = sighting),
    onHeadAhead: (sighting: AheadSighting) => (shared.health.lastAhead = sighting),
    budgetRps: config.ledger.requests_per_second,
  };
  // Series for the 50 stalest streams (docs/metrics.md); self-monitoring reads every stream from the tailer.
  return createTailer({ ...options, stalenessTop: 50 });
}

function startTailLoop(shared: Shared, loaded: Loaded, tailer: Tailer, signal: AbortSignal): Promise<void> {
  const { log, clock, monotonic, random, sleep } = shared;
  const { tail } = loaded.config;
  const loop = { tailer, health: shared.health, pollIntervalMs: tail.poll_interval, jitter: tail.jitter };
  const clocks = { clock, monotonic };
  return runTailLoop(
    { ...loop, ...clocks, random, sleep, log: log.child({ component: 'tail-loop' }) },
    signal,
  );
}
