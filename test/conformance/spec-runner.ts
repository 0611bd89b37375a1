// What both spec-case runs share (specs.test.ts: the 0.129 line; current-tokens-balances.test.ts: the current
// line's token, balance and account cases): one loopback server that answers with a fresh simulator per case,
// status and body compared exactly (bigint-aware, key order ignored; "now" of a fake clock as spec-now.ts says),
// JSON, the 2xx headers, and every response below 500 checked against the line's openapi.yml (the documents
// list no 5xx; such a body was compared exactly). A case counts as passed only when every check passes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadFixture } from '@ledger-sentinel/simulator/fixtures';
import { parseSpecJson } from '@ledger-sentinel/simulator/fixture-values';
import { createSimulatorServer, type RequestHandler } from '@ledger-sentinel/simulator/server';
import type { ServiceVersion } from '@ledger-sentinel/simulator/service-version';
import { createResponseValidator } from './openapi-validator.js';
import type { SpecCase } from './spec-cases.js';
import { nowAsPlaceholder } from './spec-now.js';

export interface SpecRunOptions {
  /** For the count printed at the end: `conformance (<label>)`. */
  readonly label: string;
  readonly cases: readonly SpecCase[];
  readonly openapiPath: string;
  /** Request path → the openapi.yml path that describes it. */
  readonly openapiPaths: ReadonlyArray<readonly [RegExp, string]>;
  readonly serviceVersion?: ServiceVersion;
}

/** Registers the server's hooks; returns the check of one case. */
export function specRunner(options: SpecRunOptions): (specCase: SpecCase) => Promise<void> {
  const validator = createResponseValidator(options.openapiPath);
  const failed = new Set<string>();
  let server: Server;
  let origin: string;
  let current: RequestHandler = (_req, res) => res.writeHead(503).end();
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => current(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const { label, cases } = options;
    console.log(`conformance (${label}): ${cases.length - failed.size} of ${cases.length} cases pass`);
    for (const name of failed) console.log(`  failed: ${name}`);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function run(specCase: SpecCase) {
    const { store, config } = loadFixture(specCase.setup, {
      ...(specCase.bindTimestampRange === undefined
        ? {}
        : { bindTimestampRange: specCase.bindTimestampRange }),
    });
    const version = options.serviceVersion;
    current = createSimulatorServer({
      store,
      config: version ? { ...config, serviceVersion: version } : config,
    });
    const response = await request(`${origin}${specCase.url}`);
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  return async (specCase) => {
    failed.add(specCase.name); // until every check below has passed (a throw included)
    const actual = await run(specCase);
    const body = actual.text === '' ? {} : parseSpecJson(actual.text);
    expect(actual.status).toBe(specCase.status);
    expect(String(actual.headers['content-type'])).toContain('application/json');
    expect(nowAsPlaceholder(body, specCase)).toEqual(nowAsPlaceholder(specCase.body, specCase));
    if (actual.status >= 200 && actual.status <= 299) expect(actual.headers).toMatchObject(specCase.headers);
    const path = options.openapiPaths.find(([pattern]) => pattern.test(specCase.url.split('?')[0] as string));
    expect(path, 'a route openapi.yml describes').toBeDefined();
    if (actual.status < 500)
      expect(validator.validate((path as [RegExp, string])[1], actual.status, actual.text)).toBeNull();
    failed.delete(specCase.name);
  };
}
