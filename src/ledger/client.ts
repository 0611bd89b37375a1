// The query-service client: validated queries, typed pages, links.next followed safely, one shared request
// budget, retries on undici. See docs/ledger-client.md.
import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import { VERSION } from '../version.js';
import type { ClientTimeouts } from './http.js';
import { getParsed, type GetOptions, type LedgerMetrics, type RequestContext } from './ledger-request.js';
import { parsePageText, type Endpoint, type Page, type RecordOf } from './page.js';
import { LinkLoopError } from './errors.js';
import { accountUrl, getAccount } from './get-account.js';
import { getToken, tokenUrl } from './get-token.js';
import { parseBase, requestPath, resolveLink } from './pagination.js';
import { createPageReporter } from './page-reporter.js';
import {
  actionsUrl,
  rewardsUrl,
  transactionsUrl,
  type ActionsQuery,
  type RewardsQuery,
  type TransactionsQuery,
} from './query.js';
import { createRequestBudget, type RequestBudget } from './request-budget.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import type {
  AccountSummary,
  ContractAction,
  StakingReward,
  Transaction,
} from '@ledger-sentinel/ledger-model/schema';
import { abortableSleep } from './sleep.js';

export interface LedgerClientOptions {
  /** e.g. https://mainnet.mirrornode.hedera.com; a path prefix (proxy mount) is kept. */
  readonly baseUrl: string;
  /** Injected transport (tests, shared pools); not closed by close(). Default: a keep-alive Agent. */
  readonly dispatcher?: Dispatcher;
  /** Share one budget between clients; default: a budget of `requestsPerSecond`. */
  readonly budget?: RequestBudget;
  readonly requestsPerSecond?: number;
  /**
   * connect/headers/body are undici's per-phase timeouts (body: the longest pause between two chunks); total
   * bounds one whole attempt, so a body trickled a byte at a time still ends (docs/ledger-client.md).
   */
  readonly timeouts?: ClientTimeouts;
  readonly maxResponseBytes?: number;
  readonly retry?: Partial<RetryPolicy>;
  readonly logger?: Logger;
  readonly metrics?: LedgerMetrics;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly clock?: () => number;
  readonly random?: () => number;
  readonly userAgent?: string;
}

export type ListOptions = GetOptions;

export interface LedgerClient {
  listTransactions(query: TransactionsQuery, opts?: ListOptions): AsyncIterable<Page<Transaction>>;
  listRewards(account: string, query: RewardsQuery, opts?: ListOptions): AsyncIterable<Page<StakingReward>>;
  listActions(
    transactionIdOrHash: string,
    query: ActionsQuery,
    opts?: ListOptions,
  ): AsyncIterable<Page<ContractAction>>;
  /** An account by id, alias or EVM address; null when the service knows no such account (404). */
  getAccount(idOrAliasOrEvmAddress: string, opts?: ListOptions): Promise<AccountSummary | null>;
  /** A token's JSON object (read it with tokens/token-info.ts); null when the service knows no such token (404). */
  getToken(tokenId: string, opts?: ListOptions): Promise<Record<string, unknown> | null>;
  /** One page of a service path such as a persisted `links.next` (relative, or absolute on our origin). */
  fetchPage<K extends Endpoint>(endpoint: K, url: string, opts?: ListOptions): Promise<Page<RecordOf[K]>>;
  /** Pages from `url` on, following links.next until null. */
  pages<K extends Endpoint>(endpoint: K, url: string, opts?: ListOptions): AsyncIterable<Page<RecordOf[K]>>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUTS = { connectMs: 5_000, headersMs: 10_000, bodyMs: 30_000, totalMs: 60_000 };
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** Links of one walk remembered for the loop check (A → B → A). */
const MAX_REMEMBERED_LINKS = 10_000;

export function createLedgerClient(options: LedgerClientOptions): LedgerClient {
  const base = parseBase(options.baseUrl);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const owned = options.dispatcher === undefined ? createAgent(timeouts) : undefined;
  const log = options.logger?.child({ component: 'ledger-client' });
  const ctx: RequestContext = {
    http: {
      origin: base.origin,
      dispatcher: options.dispatcher ?? (owned as Agent),
      headersTimeoutMs: timeouts.headersMs,
      bodyTimeoutMs: timeouts.bodyMs,
      totalTimeoutMs: timeouts.totalMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      userAgent: options.userAgent ?? `ledger-sentinel/${VERSION}`,
    },
    budget: options.budget ?? createRequestBudget({ requestsPerSecond: options.requestsPerSecond }),
    retry: { ...DEFAULT_RETRY, ...options.retry },
    log,
    metrics: options.metrics,
    sleep: options.sleep ?? abortableSleep,
    clock: options.clock ?? Date.now,
    random: options.random ?? Math.random,
  };
  const reportPage = createPageReporter(ctx.metrics, log);

  async function fetchPage<K extends Endpoint>(endpoint: K, url: string, opts: ListOptions = {}) {
    const path = resolveLink(base, url, '');
    const page = await getParsed(ctx, endpoint, requestPath(base, path), opts, (text) =>
      parsePageText(endpoint, path, text),
    );
    ctx.metrics?.pages.inc({ endpoint });
    reportPage(endpoint, page);
    return page;
  }

  async function* pages<K extends Endpoint>(endpoint: K, url: string, opts: ListOptions = {}) {
    let current = resolveLink(base, url, '');
    // Every path of this walk: a link back to any of them (A → B → A) is a loop, not only one back to itself.
    const walked = new Set([current]);
    for (;;) {
      const page = await fetchPage(endpoint, current, opts);
      yield page;
      if (page.next === null) return;
      const next = resolveLink(base, page.next, current);
      if (walked.has(next)) throw new LinkLoopError(page.next, current);
      // A walk whose links never repeat is bounded by its caller (tail.max_pages_per_poll); this only caps
      // the memory such a walk can take here.
      if (walked.size >= MAX_REMEMBERED_LINKS) walked.delete(walked.values().next().value as string);
      walked.add(next);
      current = next;
    }
  }

  return {
    listTransactions: (query, opts) => pages('transactions', transactionsUrl(query), opts),
    listRewards: (account, query, opts) => pages('rewards', rewardsUrl(account, query), opts),
    listActions: (idOrHash, query, opts) => pages('actions', actionsUrl(idOrHash, query), opts),
    getAccount: async (ref, opts) => getAccount(ctx, requestPath(base, accountUrl(ref)), opts),
    getToken: async (id, opts) => getToken(ctx, requestPath(base, tokenUrl(id)), opts),
    fetchPage,
    pages,
    close: async () => {
      await owned?.close();
    },
  };
}

function createAgent(timeouts: typeof DEFAULT_TIMEOUTS): Agent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    keepAliveTimeout: 30_000,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connections: 16,
  });
}

export type { Endpoint, InvalidRecord, Page, RecordOf } from './page.js';
export type {
  AccountIdFilter,
  ActionsQuery,
  IndexFilter,
  Operator,
  Order,
  RewardsQuery,
  TimestampFilter,
  TransactionsQuery,
} from './query.js';
