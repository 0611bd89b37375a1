import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';
import { startHttpServer, type RunningHttpServer } from './http-server.js';
import type { HtmlPage } from './html-route.js';

describe('the status page route', () => {
  let server: RunningHttpServer | undefined;
  afterEach(async () => server?.close());

  async function start(statusPage?: HtmlPage): Promise<string> {
    server = await startHttpServer({
      host: '127.0.0.1',
      port: 0,
      registry: createMetrics({ version: '1.2.3' }).registry,
      readiness: () => ({}),
      ...(statusPage ? { statusPage } : {}),
    });
    return server.url;
  }

  it('serves / as HTML under a CSP that allows no script and no external resource', async () => {
    const url = await start(() => '<!doctype html><p>hello</p>');

    const res = await fetch(`${url}/`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp.split(';').map((d) => d.trim())).toEqual(
      expect.arrayContaining(["default-src 'none'", "style-src 'unsafe-inline'"]),
    );
    expect(csp).not.toContain('script-src');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('<!doctype html><p>hello</p>');
  });

  it('hands the query string to the page', async () => {
    const seen: string[] = [];
    const url = await start((query) => {
      seen.push(query.get('streams_page') ?? '(none)');
      return '';
    });

    await fetch(`${url}/?streams_page=7`);
    await fetch(`${url}/`);

    expect(seen).toEqual(['7', '(none)']);
  });

  it('answers 500 without detail when the page throws', async () => {
    const url = await start(() => {
      throw new Error('secret detail');
    });

    const res = await fetch(`${url}/`);

    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('secret detail');
  });

  it('answers the favicon with an empty 204, so a browser logs no 404', async () => {
    const url = await start(() => '');

    const res = await fetch(`${url}/favicon.ico`);

    expect(res.status).toBe(204);
  });

  it('leaves / a 404 when no page is configured', async () => {
    const url = await start();

    const res = await fetch(`${url}/`);

    expect(res.status).toBe(404);
  });
});
