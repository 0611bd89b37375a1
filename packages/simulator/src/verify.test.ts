import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VerificationResult } from '@ledger-sentinel/ledger-model/schema';
import { startSimulator, type RunningSimulator } from './server.js';
import { SimulatorStore } from './store.js';
import { createVerifyRoute } from './verify.js';
import { VERIFY_FIXED_ADDRESSES, verifyAnswerFor, type VerifyAnswer } from './verify-answers.js';
import { isValidAddress, keccak256, toChecksumAddress } from './verify-keccak.js';
import { createRng } from './rng.js';

let sim: RunningSimulator;
beforeAll(async () => {
  const route = createVerifyRoute({ prefix: '/sourcify', clock: () => Date.UTC(2025, 0, 1) });
  sim = await startSimulator({ store: new SimulatorStore(), extraRoutes: [route] });
});
afterAll(() => sim.close());

async function verify(body: unknown, init: { raw?: string; cookie?: string; contentType?: string } = {}) {
  const res = await fetch(`${sim.url}/sourcify/session/verify/etherscan`, {
    method: 'POST',
    headers: {
      'content-type': init.contentType ?? 'application/json',
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.raw ?? JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

const A = VERIFY_FIXED_ADDRESSES;

describe('keccak and EIP-55', () => {
  it.each([
    ['', 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'],
    ['abc', '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45'],
  ])('keccak256(%j)', (input, hex) => {
    expect(keccak256(Buffer.from(input)).toString('hex')).toBe(hex);
  });

  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('checksums %s (EIP-55 test vector)', (address) => {
    expect(toChecksumAddress(address.toLowerCase())).toBe(address);
    expect(isValidAddress(address)).toBe(true);
    expect(isValidAddress(address.replace('a', 'A'))).toBe(false);
  });
});

describe('address → answer mapping', () => {
  it.each(Object.entries(A))('the fixed address for %s maps to it', (answer, address) => {
    expect(verifyAnswerFor(address)).toBe(answer);
    expect(verifyAnswerFor(address.toUpperCase().replace('0X', '0x'))).toBe(answer);
  });

  it('spreads hashed addresses over every answer', () => {
    const rng = createRng('addresses');
    const seen = new Set<VerifyAnswer>();

    for (let i = 0; i < 2000; i++) seen.add(verifyAnswerFor(`0x${rng.bytes(20).toString('hex')}`));

    expect(seen.size).toBe(Object.keys(A).length);
  });
});

describe('POST /session/verify/etherscan', () => {
  it('imports a perfect contract: checksummed echo, string chainId, object files, Deprecation and a session cookie', async () => {
    const rng = createRng('perfect-lower-case');
    let address = '';
    while (verifyAnswerFor(address) !== 'perfect') address = `0x${rng.bytes(20).toString('hex')}`;

    const res = await verify({ address: A.perfect, chainId: '295' });
    const lower = await verify({ address, chainId: '1' });

    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('cache-control')).toBeNull();
    expect(res.headers.get('set-cookie')).toMatch(
      /^sourcify_vid=s%3A[0-9a-f]+\.sim; Path=\/; Expires=.*; HttpOnly; SameSite=Lax$/,
    );
    const [contract] = VerificationResult.parse(res.json).contracts;
    expect(contract).toMatchObject({
      address: A.perfect,
      chainId: '295',
      status: 'perfect',
      statusMessage: '',
    });
    expect(contract?.files).toMatchObject({ missing: {}, invalid: {} });
    expect((res.json.contracts as { verificationId: string }[])[0]?.verificationId).toMatch(/^[0-9a-f]{40}$/);
    const echoed = (lower.json.contracts as { address: string }[])[0]?.address;
    expect(echoed).toBe(toChecksumAddress(address));
    expect(echoed).not.toBe(address);
  });

  it.each([
    ['partial', { status: 'partial', statusMessage: '' }],
    ['error', { status: 'error', statusMessage: "The deployed and recompiled bytecode don't match." }],
  ] as const)('reports %s verification as a 200', async (answer, fields) => {
    const res = await verify({ address: A[answer], chainId: '295' });

    expect(res.status).toBe(200);
    expect((res.json.contracts as unknown[])[0]).toMatchObject(fields);
  });

  it('reports missing sources as status error without statusMessage and files.missing keyed by path', async () => {
    const res = await verify({ address: A['missing-files'], chainId: '295' });

    const contract = (res.json.contracts as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(contract.status).toBe('error');
    expect(contract).not.toHaveProperty('statusMessage');
    const missing = (contract.files as { missing: Record<string, { keccak256: string; urls: string[] }> })
      .missing;
    expect(Object.values(missing)[0]?.keccak256).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('adds storageTimestamp only for an already fully verified contract', async () => {
    const stored = await verify({ address: A['perfect-stored'], chainId: '295' });
    const fresh = await verify({ address: A.perfect, chainId: '296' });

    expect((stored.json.contracts as Record<string, unknown>[])[0]?.storageTimestamp).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    expect((fresh.json.contracts as Record<string, unknown>[])[0]).not.toHaveProperty('storageTimestamp');
  });

  it.each([
    ['not-verified', 404, 'This contract is not verified on Etherscan.'],
    ['rate-limited', 429, 'Etherscan API rate limit reached, try later.'],
    ['invalid-key', 502, 'Error in Etherscan API response. Result message: Invalid API Key'],
  ] as const)('answers %s as %i in the standard shape, with Deprecation', async (answer, status, message) => {
    const res = await verify({ address: A[answer], chainId: '295' });

    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error: message, message });
    expect(res.headers.get('deprecation')).toBe('true');
  });

  it.each([
    ['a missing address', { chainId: '295' }, "request/body must have required property 'address'"],
    ['a numeric chainId', { address: A.perfect, chainId: 295 }, 'request/body/chainId must be string'],
  ])('rejects %s in the validator shape, without Deprecation or cookie', async (_name, body, message) => {
    const res = await verify(body);

    expect(res.status).toBe(400);
    expect(res.json.message).toBe(message);
    expect(res.json).not.toHaveProperty('error');
    expect((res.json.errors as unknown[]).length).toBe(1);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    [
      'an invalid address',
      { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', chainId: '295' },
      'Invalid address: 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      null,
    ],
    [
      'an unsupported chain',
      { address: A.perfect, chainId: '99999' },
      'Chain 99999 not supported for verification!',
      null,
    ],
    [
      'a chain without Etherscan import',
      { address: A.perfect, chainId: '10' },
      'Requested chain 10 is not supported for importing from Etherscan.',
      'true',
    ],
  ])('rejects %s in the standard shape', async (_name, body, message, deprecation) => {
    const res = await verify(body);

    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: message, message });
    expect(res.headers.get('deprecation')).toBe(deprecation);
  });

  it('keeps a session: the cookie accumulates contracts, and a repeated import adds no new file', async () => {
    const first = await verify({ address: A.perfect, chainId: '1' });
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;

    const second = await verify({ address: A.partial, chainId: '1' }, { cookie });
    const again = await verify({ address: A.perfect, chainId: '1' }, { cookie });

    expect((second.json.contracts as unknown[]).length).toBe(2);
    expect(again.status).toBe(400);
    expect(again.json.message).toBe("The contract didn't add any new file");
  });

  it('accepts a multipart form with the chain field', async () => {
    const boundary = 'XyZ';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const raw = `${part('address', A.partial)}${part('chain', '295')}--${boundary}--\r\n`;

    const res = await verify(null, { raw, contentType: `multipart/form-data; boundary=${boundary}` });

    expect(res.status).toBe(200);
    expect((res.json.contracts as { status: string }[])[0]?.status).toBe('partial');
  });
});
