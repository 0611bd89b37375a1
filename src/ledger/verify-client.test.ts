import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from '../../test/fixtures/ledger/http-server.js';
import { createMetrics } from '../observability/metrics.js';
import { InvalidParameterError, VerifyError } from './errors.js';
import { createVerifyClient, type VerifyClient } from './verify-client.js';

const API_KEY = 'SECRET-KEY-3f9a7c';
const ADDRESS = '0x00000000000000000000000000000000000003e8';
const OK = {
  contracts: [
    {
      verificationId: '5f1c0a2b3c4d5e6f708192a3b4c5d6e7f8091a2b',
      constructorArgumentsArray: [{ internalType: 'uint256', name: 'x', type: 'uint256' }],
      compiledPath: 'contracts/Token.sol',
      name: 'Token',
      address: '0x00000000000000000000000000000000000003E8',
      chainId: '295',
      files: { found: ['contracts/Token.sol'], missing: {}, invalid: {} },
      status: 'perfect',
      statusMessage: '',
    },
  ],
  unused: [],
  files: ['contracts/Token.sol', 'metadata.json'],
};

let server: TestServer | undefined;
let client: VerifyClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

async function setup(handler: Handler) {
  server = await startServer(handler);
  const lines: string[] = [];
  const metrics = createMetrics({ registry: new Registry() });
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  client = createVerifyClient({ baseUrl: `${server.origin}/server`, logger, metrics });
  return { server, client, lines, metrics };
}

describe('verify client', () => {
  it('posts address, chainId as a string and apiKey, and parses the result', async () => {
    const t = await setup((_req, res) => sendJson(res, 200, OK));

    const result = await t.client.verify({ address: ADDRESS, chainId: '295', apiKey: API_KEY });

    expect(result.contracts[0]?.status).toBe('perfect');
    expect(t.server.requests[0]?.url).toBe('/server/session/verify/etherscan');
    expect(JSON.parse(t.server.requests[0]?.body ?? '')).toEqual({
      address: ADDRESS,
      chainId: '295',
      apiKey: API_KEY,
    });
    expect(t.server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('parses an error status with missing and invalid files as objects', async () => {
    const contract = {
      ...OK.contracts[0],
      status: 'error',
      statusMessage: undefined,
      files: {
        found: [],
        missing: { 'a.sol': { keccak256: '0x12', urls: ['dweb:/ipfs/x'] } },
        invalid: { 'b.sol': { expectedHash: '0x1', calculatedHash: '0x2' } },
      },
    };
    const t = await setup((_req, res) => sendJson(res, 200, { ...OK, contracts: [contract] }));

    const result = await t.client.verify({ address: ADDRESS, chainId: '295' });

    expect(result.contracts[0]?.files?.missing['a.sol']?.urls).toEqual(['dweb:/ipfs/x']);
    expect(result.contracts[0]?.statusMessage).toBeUndefined();
    expect(JSON.parse(t.server.requests[0]?.body ?? '')).toEqual({ address: ADDRESS, chainId: '295' });
  });

  it.each([
    [
      400,
      { error: 'Invalid address: 0x1', message: 'Invalid address: 0x1' },
      'bad-request',
      false,
      'Invalid address',
    ],
    [
      400,
      { message: 'request/body/chainId must be string', errors: [{ path: '/body/chainId', message: 'x' }] },
      'bad-request',
      false,
      'must be string',
    ],
    [
      404,
      { error: 'x', message: 'This contract is not verified on Etherscan.' },
      'not-verified',
      false,
      'not verified',
    ],
    [
      429,
      { error: 'x', message: 'Etherscan API rate limit reached, try later.' },
      'rate-limited',
      true,
      'rate limit',
    ],
    [
      502,
      { error: 'x', message: `Error in Etherscan API response. Result message: Invalid API Key ${API_KEY}` },
      'upstream',
      true,
      'Invalid API Key',
    ],
    [
      413,
      { error: 'x', message: 'Too much session memory used. Delete some files or clear the session.' },
      'too-large',
      false,
      'session memory',
    ],
    [500, 'Cannot store session', 'server', true, 'Cannot store session'],
    [500, { error: 'compiler failed', message: 'compiler failed' }, 'server', true, 'compiler failed'],
  ])('maps %i %j to %s', async (status, body, kind, retryable, text) => {
    const t = await setup((_req, res) => sendJson(res, status, body));

    const run = t.client.verify({ address: ADDRESS, chainId: '295', apiKey: API_KEY });

    await expect(run).rejects.toThrow(VerifyError);
    await expect(run).rejects.toMatchObject({
      kind,
      status,
      retryable,
      message: expect.stringContaining(text) as string,
    });
  });

  it('never puts the API key in an error, a log line or a metric', async () => {
    const t = await setup((_req, res) =>
      sendJson(res, 502, {
        error: 'x',
        message: `Request to https://api.etherscan.io/v2/api?apikey=${API_KEY} failed.`,
      }),
    );

    const error = await t.client
      .verify({ address: ADDRESS, chainId: '295', apiKey: API_KEY })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(VerifyError);
    expect(
      JSON.stringify({
        ...(error as object),
        message: (error as Error).message,
        stack: (error as Error).stack,
      }),
    ).not.toContain(API_KEY);
    expect(t.lines.length).toBeGreaterThan(0);
    expect(t.lines.join('\n')).not.toContain(API_KEY);
    expect(await t.metrics.registry.metrics()).not.toContain(API_KEY);
    expect((error as Error).message).toContain('[redacted]');
  });

  it('maps a network failure without leaking the key', async () => {
    const t = await setup((req) => req.socket.destroy());

    const error = await t.client
      .verify({ address: ADDRESS, chainId: '295', apiKey: API_KEY })
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ kind: 'network', retryable: true });
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it.each([
    [{ address: '0x1234', chainId: '295' }, 'address'],
    [{ address: ADDRESS, chainId: 295 as unknown as string }, 'chainId'],
    [{ address: ADDRESS, chainId: 'mainnet' }, 'chainId'],
  ])('rejects %j before sending', async (request, parameter) => {
    const t = await setup((_req, res) => sendJson(res, 200, OK));

    const run = t.client.verify(request);

    await expect(run).rejects.toThrow(InvalidParameterError);
    await expect(run).rejects.toMatchObject({ parameter });
    expect(t.server.requests).toHaveLength(0);
  });

  it.each([
    ['not json', 'not JSON'],
    [{ contracts: [{ address: ADDRESS, chainId: 295, status: 'perfect' }] }, 'contracts.0.chainId'],
    [{ contracts: [{ address: ADDRESS, chainId: '295', status: 'great' }] }, 'contracts.0.status'],
  ])('reports a malformed 200 %j', async (body, text) => {
    const t = await setup((_req, res) => sendJson(res, 200, body));

    const run = t.client.verify({ address: ADDRESS, chainId: '295' });

    await expect(run).rejects.toMatchObject({
      kind: 'malformed',
      message: expect.stringContaining(text) as string,
    });
  });

  it.each([
    [404, 'This contract is not verified on Etherscan.', 30, 'contract not verified'],
    [502, 'Etherscan API responded with an error. Status code: 500.', 40, 'verification failed'],
  ])(
    'logs a %i at its own level: an ordinary "not verified" is no warning',
    async (status, message, level, msg) => {
      const t = await setup((_req, res) => sendJson(res, status, { error: message, message }));

      await t.client.verify({ address: ADDRESS, chainId: '295' }).catch(() => undefined);

      expect(t.lines.map((l) => JSON.parse(l) as { level: number; msg: string })).toEqual([
        expect.objectContaining({ level, msg }),
      ]);
    },
  );
});
