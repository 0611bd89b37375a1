// A simulated Sourcify `POST /session/verify/etherscan` (API v1, docs/ledger-api.md §18), mounted as an extra route of the
// simulator server under any prefix. The answer depends only on the address (verify-answers.ts), the chain and the
// session cookie: validation errors carry no Deprecation header and no cookie; everything the handler raises
// carries both (docs/ledger-api.md §18.2).
import { createHash } from 'node:crypto';
import type { Route } from './server.js';
import type { RouteResponse } from './response.js';
import { verifyAnswerFor } from './verify-answers.js';
import { contractBody, type ImportedAnswer, type VerifiedContractBody } from './verify-contract.js';
import { isValidAddress, toChecksumAddress } from './verify-keccak.js';
import { parseVerifyRequest, readBody, validatorMessage } from './verify-request.js';

export interface VerifyRouteOptions {
  /** Mount point inside the server, e.g. `/sourcify`: the route is `<prefix>/session/verify/etherscan`. Default ''. */
  readonly prefix?: string;
  /** Chains supported for verification (decimal strings). Default 1, 10, 295, 296, 297. */
  readonly supportedChains?: readonly string[];
  /** Supported chains that can import from Etherscan. Default 1, 295, 296, 297 (so 10 gives the import error). */
  readonly etherscanChains?: readonly string[];
  /** Milliseconds since the epoch, for cookie expiry. Default Date.now. */
  readonly clock?: () => number;
}

export interface VerifyRequestInput {
  readonly body: Buffer;
  readonly contentType: string | undefined;
  readonly cookie: string | undefined;
}

export interface VerifyService {
  answer(input: VerifyRequestInput): RouteResponse;
  readonly stats: { requests: number; sessions: number };
}

const COOKIE = 'sourcify_vid';
const SESSION_MS = 12 * 3600 * 1000;
const MAX_SESSIONS = 1000;

interface Session {
  readonly contracts: Map<string, VerifiedContractBody>;
}

/** The route to pass in `extraRoutes`; its body is read from the node request. */
export function createVerifyRoute(
  options: VerifyRouteOptions = {},
): Route & { readonly service: VerifyService } {
  const service = createVerifyService(options);
  return {
    method: 'POST',
    pattern: `${(options.prefix ?? '').replace(/\/$/, '')}/session/verify/etherscan`,
    // Sourcify sends no Cache-Control on verification answers.
    cacheControl: null,
    service,
    async handle(request) {
      const req = request.req;
      const body = req ? await readBody(req) : Buffer.alloc(0);
      return service.answer({ body, contentType: req?.headers['content-type'], cookie: req?.headers.cookie });
    },
  };
}

/** In-memory cookie sessions, oldest dropped beyond MAX_SESSIONS; ids are deterministic (a counter's sha1). */
function createSessions(stats: {
  sessions: number;
}): (cookie: string | undefined) => { id: string; data: Session } {
  const sessions = new Map<string, Session>();
  const pattern = new RegExp(`(?:^|;\\s*)${COOKIE}=s%3A([0-9a-f]+)\\.`);
  let nextSession = 0;
  return (cookie) => {
    const sent = pattern.exec(cookie ?? '')?.[1];
    const existing = sent === undefined ? undefined : sessions.get(sent);
    if (sent !== undefined && existing) return { id: sent, data: existing };
    const id = createHash('sha1').update(`session:${nextSession++}`).digest('hex').slice(0, 32);
    if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
    const data: Session = { contracts: new Map() };
    sessions.set(id, data);
    stats.sessions = sessions.size;
    return { id, data };
  };
}

export function createVerifyService(options: VerifyRouteOptions = {}): VerifyService {
  const supported = new Set(options.supportedChains ?? ['1', '10', '295', '296', '297']);
  const etherscan = new Set(options.etherscanChains ?? ['1', '295', '296', '297']);
  const clock = options.clock ?? Date.now;
  const stats = { requests: 0, sessions: 0 };
  const session = createSessions(stats);

  function answer(input: VerifyRequestInput): RouteResponse {
    stats.requests++;
    const parsed = parseVerifyRequest(input.body, input.contentType ?? 'application/json');
    if (!parsed.ok && parsed.kind === 'validator') {
      return json(400, { message: validatorMessage(parsed.issues), errors: parsed.issues });
    }
    if (!parsed.ok) return standard(400, parsed.message);
    const { address, chainId, apiKey } = parsed.fields;
    if (!isValidAddress(address)) return standard(400, `Invalid address: ${address}`);
    if (!supported.has(chainId)) return standard(400, `Chain ${chainId} not supported for verification!`);
    const { id, data } = session(input.cookie);
    const expires = new Date(clock() + SESSION_MS).toUTCString();
    const headers = {
      deprecation: 'true',
      'set-cookie': `${COOKIE}=s%3A${id}.sim; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax`,
    };
    return { ...imported(data, chainId, address, apiKey), headers };
  }

  function imported(
    data: Session,
    chainId: string,
    address: string,
    apiKey: string | undefined,
  ): RouteResponse {
    if (!etherscan.has(chainId)) {
      return standard(400, `Requested chain ${chainId} is not supported for importing from Etherscan.`);
    }
    const checksummed = toChecksumAddress(address);
    const answer = apiKey?.startsWith('invalid') ? 'invalid-key' : verifyAnswerFor(checksummed);
    if (answer === 'not-verified') return standard(404, 'This contract is not verified on Etherscan.');
    if (answer === 'rate-limited') return standard(429, 'Etherscan API rate limit reached, try later.');
    if (answer === 'invalid-key') {
      return standard(502, 'Error in Etherscan API response. Result message: Invalid API Key');
    }
    const key = `${chainId}:${checksummed}`;
    if (data.contracts.has(key)) return standard(400, "The contract didn't add any new file");
    data.contracts.set(key, contractBody(checksummed, chainId, answer as ImportedAnswer));
    const contracts = [...data.contracts.values()];
    const files = [...new Set(contracts.flatMap((c) => c.files.found)), 'metadata.json'];
    return json(200, { contracts, unused: [], files });
  }

  return { answer, stats };
}

function json(status: number, body: unknown): RouteResponse {
  return { status, body: JSON.stringify(body) };
}

function standard(status: number, message: string): RouteResponse {
  return json(status, { error: message, message });
}
