// The ground truth over HTTP, as extra routes of the simulator server (never faulted, never lagged):
//   GET  /_sim/transactions?from=&to=&account=   every record generated, ascending, with visibility metadata
//   GET  /_sim/rewards?from=&to=&account=        every staking-reward payout
//   GET  /_sim/contracts                         contracts with their EVM address and verification answer
//   GET  /_sim/stats                             counters of the living ledger (and of the fault layer)
//   POST /_sim/inject                            queue an InjectSpec (JSON) for the next tick
import { normalizeEntityId, parseEntityId, encodeEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { isTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { serializeJson } from './json.js';
import { errorResponse, type RouteResponse } from './response.js';
import type { Route, RouteRequest } from './route.js';
import type { TruthQuery } from './ground-truth.js';
import type { LivingLedger } from './living-ledger.js';
import { formatNs } from './traffic-record.js';
import { parseInjectBody } from './inject-body.js';
import { readBody } from './verify-request.js';

function query(request: RouteRequest): TruthQuery | RouteResponse {
  const params = new URLSearchParams(request.rawQuery);
  const bad: string[] = [];
  const time = (key: string) => {
    const value = params.get(key);
    if (value === null) return undefined;
    if (!isTimestamp(value))
      bad.push(`Invalid parameter: ${key} (expected a timestamp like 1700000000.123456789)`);
    else return parseTimestamp(value);
    return undefined;
  };
  const fromNs = time('from');
  const toNs = time('to');
  const accountText = params.get('account');
  const parsed = accountText === null ? undefined : parseEntityId(accountText);
  if (parsed && !parsed.ok) bad.push('Invalid parameter: account (expected an entity id like 0.0.1001)');
  if (bad.length > 0) return errorResponse(400, bad);
  return {
    ...(fromNs === undefined ? {} : { fromNs }),
    ...(toNs === undefined ? {} : { toNs }),
    ...(parsed?.ok ? { account: encodeEntityId(parsed.id) } : {}),
  };
}

function json(body: unknown, status = 200): RouteResponse {
  return { status, body: serializeJson(body), headers: { 'cache-control': 'no-store' } };
}

export interface GroundTruthRouteOptions {
  /** Extra counters for /_sim/stats, e.g. the fault layer's. */
  readonly extraStats?: () => Record<string, unknown>;
}

export function groundTruthRoutes(ledger: LivingLedger, options: GroundTruthRouteOptions = {}): Route[] {
  return [
    get('/_sim/transactions', (request) => {
      const q = query(request);
      if ('status' in q) return q;
      const records = ledger.truth.transactions(q);
      const meta = records.map((r) => ({
        consensus_timestamp: formatNs(r.tx.consensusTimestamp),
        visible_at: formatNs(r.visibleAt),
        late: r.late,
        ...(r.tag === undefined ? {} : { tag: r.tag }),
      }));
      return json({ transactions: records.map((r) => r.tx.json), meta });
    }),
    get('/_sim/rewards', (request) => {
      const q = query(request);
      if ('status' in q) return q;
      const rewards = ledger.truth.rewards(q).map((r) => ({
        account_id: normalizeEntityId(r.accountId.toString()),
        amount: r.amount,
        timestamp: formatNs(r.timestamp),
        visible_at: formatNs(r.visibleAt),
        late: r.late,
      }));
      return json({ rewards });
    }),
    get('/_sim/contracts', () =>
      json({
        contracts: ledger.truth.contracts().map((c) => ({
          contract_id: `0.0.${c.num}`,
          evm_address: `0x${c.evmAddress}`,
          created_timestamp: c.createdAt === null ? null : formatNs(c.createdAt),
          verification: c.verification,
        })),
      }),
    ),
    get('/_sim/stats', () => {
      const stats = ledger.stats();
      return json({ ...stats, nowNs: undefined, now: formatNs(stats.nowNs), ...options.extraStats?.() });
    }),
    injectRoute(ledger),
  ];
}

function get(pattern: string, handle: (request: RouteRequest) => RouteResponse): Route {
  return { method: 'GET', pattern, handle };
}

/** POST /_sim/inject: queues a record described by the body (InjectSpec). */
function injectRoute(ledger: LivingLedger): Route {
  return {
    method: 'POST',
    pattern: '/_sim/inject',
    async handle(request) {
      try {
        const body = request.req ? await readBody(request.req) : Buffer.from('{}');
        const spec = parseInjectBody(body.toString('utf8'));
        if (Array.isArray(spec))
          return errorResponse(
            400,
            spec.map((m) => `Invalid inject body: ${m}`),
          );
        ledger.inject(spec);
        return json({ queued: true }, 202);
      } catch (err) {
        return errorResponse(400, [`Invalid inject body: ${(err as Error).message}`]);
      }
    },
  };
}
