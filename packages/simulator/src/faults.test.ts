import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFaultDecider, FAULT_PRESETS, FaultProfile, resolveFaultProfile } from './faults.js';
import { corrupt, faultRouteOf, truncate, withFaults, type SimHandler } from './faults-handler.js';

const BODY = JSON.stringify({
  transactions: [{ consensus_timestamp: '1.000000001' }],
  links: { next: null },
});

const inner: SimHandler = (_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(BODY),
  });
  res.end(BODY);
};

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

async function serve(profile: unknown, sleep?: (ms: number) => Promise<void>): Promise<string> {
  const faulty = withFaults(inner, {
    profile: resolveFaultProfile(profile),
    seed: 1,
    ...(sleep ? { sleep } : {}),
  });
  server = createServer((req, res) => void faulty.handler(req, res));
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function always(kind: string, extra: Record<string, unknown> = {}) {
  return { routes: { transactions: { [kind]: 1, ...extra } } };
}

describe('fault profiles', () => {
  it.each(Object.keys(FAULT_PRESETS))('preset %s is a valid profile', (name) => {
    expect(() => resolveFaultProfile(name)).not.toThrow();
  });

  it.each([
    ['unknown preset', 'chaotic', 'unknown fault profile "chaotic": use one of none, flaky, chaos, late'],
    ['probability above 1', { routes: { '*': { rate_limit: 2 } } }, 'routes.*.rate_limit'],
    ['typo in a key', { routes: { '*': { rate_limt: 0.1 } } }, 'rate_limt'],
    ['unknown route', { routes: { transaction: { reset: 0.1 } } }, 'routes'],
  ])('rejects %s with a message naming it', (_name, input, message) => {
    expect(() => resolveFaultProfile(input)).toThrow(message);
  });

  it('draws the same decisions for the same seed, per route, whatever other routes do', () => {
    const profile = resolveFaultProfile('chaos');
    const a = createFaultDecider(profile, 7);
    const b = createFaultDecider(profile, 7);

    const fromA = Array.from({ length: 50 }, () => a('transactions'));
    b('rewards');
    b('actions');
    const fromB = Array.from({ length: 50 }, () => b('transactions'));

    expect(fromB).toEqual(fromA);
    expect(new Set(fromA.map((d) => d.kind)).size).toBeGreaterThan(2);
  });

  it.each([
    ['/api/v1/transactions', 'transactions'],
    ['/api/v1/accounts/0.0.5/rewards', 'rewards'],
    ['/api/v1/contracts/results/0.0.5-1-2/actions', 'actions'],
    ['/sourcify/session/verify/etherscan', 'verify'],
    ['/api/v1/blocks', 'other'],
    ['/_sim/stats', null],
  ])('routes %s to %s', (path, route) => {
    expect(faultRouteOf(path)).toBe(route);
  });

  it.each([0, 0.4, 0.9])('truncates to a strict prefix that no longer parses (shape %s)', (shape) => {
    const cut = truncate(Buffer.from(BODY), shape).toString();

    expect(BODY.startsWith(cut) && cut.length < BODY.length).toBe(true);
    expect(() => JSON.parse(cut)).toThrow();
  });

  it.each([0.1, 0.5, 0.9])('corrupts into complete but invalid JSON (shape %s)', (shape) => {
    expect(() => JSON.parse(corrupt(Buffer.from(BODY), shape).toString())).toThrow();
  });
});

describe('withFaults over HTTP', () => {
  it('answers 429 with Retry-After without calling the handler', async () => {
    const url = await serve(always('rate_limit', { retry_after_seconds: 7 }));

    const res = await fetch(`${url}/api/v1/transactions`);

    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it.each([
    ['server_error', 500, 'Internal error'],
    ['unavailable', 503, 'Service unavailable'],
  ])('answers %s as %i in the service error shape', async (kind, status, message) => {
    const url = await serve(always(kind));

    const res = await fetch(`${url}/api/v1/transactions`);

    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ _status: { messages: [{ message }] } });
  });

  it.each(['malformed', 'truncated'])('sends a complete %s body that fails JSON.parse', async (kind) => {
    const url = await serve(always(kind));

    const res = await fetch(`${url}/api/v1/transactions`);
    const text = await res.text();

    expect(res.status).toBe(200);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('resets the connection mid-body', async () => {
    const url = await serve(always('reset'));

    const read = fetch(`${url}/api/v1/transactions`).then((res) => res.text());

    await expect(read).rejects.toThrow();
  });

  it('delays slow answers through the injected sleep, then answers normally', async () => {
    const slept: number[] = [];
    const url = await serve(always('slow', { slow_ms: 2500 }), async (ms) => void slept.push(ms));

    const res = await fetch(`${url}/api/v1/transactions`);

    expect(await res.text()).toBe(BODY);
    expect(slept).toEqual([2500]);
  });

  it('never faults the ground-truth routes', async () => {
    const url = await serve({ routes: { '*': { server_error: 1 } } });

    const sim = await fetch(`${url}/_sim/stats`);
    const api = await fetch(`${url}/api/v1/transactions`);

    expect(sim.status).toBe(200);
    expect(api.status).toBe(500);
  });
});

describe('FaultProfile defaults', () => {
  it('parses an empty object into a profile that never faults', () => {
    const profile = FaultProfile.parse({});

    const decide = createFaultDecider(profile, 1);

    expect(Array.from({ length: 20 }, () => decide('transactions').kind)).toEqual(Array(20).fill(null));
    expect(profile.late_visibility).toEqual({ fraction: 0, delay_ms: 10_000 });
  });
});

describe('fault profile names', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    '%s is an unknown profile, not a member of Object',
    (name) => {
      expect(() => resolveFaultProfile(name)).toThrow(`unknown fault profile "${name}"`);
    },
  );
});
