import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { HttpServerOptions } from './http-server.js';
import { switchableHttp } from './switchable-http.js';

function handlers(role: string): HttpServerOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    registry: new Registry(),
    readiness: () => ({ role: { ok: true, message: `role: ${role}` } }),
    views: { '/quarantine': () => ({ role }) },
    statusPage: () => `<p>${role}</p>`,
  };
}

const body = async (url: string) => {
  const res = await fetch(url);
  return `${res.status} ${await res.text()}`;
};

describe('switchableHttp', () => {
  it('keeps one port across apps and serves the handlers of the app running now', async () => {
    const http = switchableHttp();
    const standby = await http.start(handlers('standby'));
    const asStandby = await body(`${standby.url}/readyz`);
    await standby.close();
    const between = await body(`${standby.url}/readyz`);
    const health = await body(`${standby.url}/healthz`);
    const leader = await http.start(handlers('leader'));
    const asLeader = [await body(`${leader.url}/readyz`), await body(`${leader.url}/quarantine`)];
    await leader.close();
    await http.close();
    const closed = await fetch(`${leader.url}/healthz`).then(
      () => 'open',
      () => 'closed',
    );

    expect(leader.url).toBe(standby.url);
    expect(asStandby).toContain('role: standby');
    expect(between).toMatch(/^503 .*switching between standby and leader/);
    expect(health).toBe('200 ok\n');
    expect(asLeader[0]).toMatch(/^200 .*role: leader/);
    expect(asLeader[1]).toBe('200 {"role":"leader"}\n');
    expect(closed).toBe('closed');
  });
});
