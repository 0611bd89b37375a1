// The daemon's token facts: read from the query service for the configured tokens (at start, then every
// refreshMs) and, lazily, for tokens met in alerting records; kept in a bounded map (configured tokens are never
// evicted). get() is synchronous, for the rule engine; ensure() does the I/O beforehand, in the pipeline's prepare
// step. A token the service does not know, a refused body or a failed read is counted, logged once per token and
// reason, and retried after retryMs; its amounts are shown in raw units meanwhile, never dropped.
import type { Logger } from 'pino';
import type { Metrics } from '../observability/metrics.js';
import { readTokenInfo, type TokenFacts } from './token-info.js';
import type { UnitFacts } from './token-amount-text.js';

/** `background`: a refresh nothing waits for, which yields to the tail's polls in the request budget. */
export interface FetchOptions {
  readonly signal?: AbortSignal;
  readonly background: boolean;
}
export type FetchToken = (tokenId: string, options: FetchOptions) => Promise<Record<string, unknown> | null>;
/** How often the configured tokens are read again (a symbol or a key can change; decimals cannot). */
export const TOKEN_REFRESH_MS = 10 * 60_000;

export type FactsFailure = 'not_found' | 'refused' | 'error';
const FAILURES: readonly FactsFailure[] = ['not_found', 'refused', 'error'];

export interface TokenFactsOptions {
  readonly fetch: FetchToken;
  readonly configured?: readonly string[];
  /** Names `tokens:` gives its tokens, shown in messages. */
  readonly names?: ReadonlyMap<string, string>;
  readonly log?: Logger;
  readonly metrics?: Pick<Metrics, 'tokenFactsFailures' | 'tokenFactsCached'>;
  readonly clock?: () => number;
  /** Tokens met in records that are kept besides the configured ones. */
  readonly maxEntries?: number;
  /** How old facts may get before they are read again (symbol and keys can change; decimals cannot). */
  readonly refreshMs?: number;
  /** How soon a failed read is tried again. */
  readonly retryMs?: number;
}

export interface TokenFactsStore {
  /** The facts of a token, if read (stale facts are still returned while a refresh runs). */
  get(tokenId: string): TokenFacts | undefined;
  /** What messages show a token's amounts with: its decimals and symbol when read, and its configured name. */
  units(tokenId: string): UnitFacts | undefined;
  /** Why the last read of a token failed, if it did. */
  failure(tokenId: string): FactsFailure | undefined;
  /** Reads the tokens not known yet (or failed long enough ago); stale ones are refreshed in the background. Never rejects. */
  ensure(tokenIds: Iterable<string>, signal?: AbortSignal): Promise<void>;
  /** Reads every configured token again (the refresh timer). Never rejects. */
  refreshConfigured(signal?: AbortSignal): Promise<void>;
}

interface Entry {
  facts?: TokenFacts;
  failure?: FactsFailure;
  checkedAt: number;
}

/** Reads started by one ensure(): a record moving hundreds of tokens must not spend the request budget on them. */
export const MAX_READS_PER_ENSURE = 20;

export function createTokenFacts(options: TokenFactsOptions): TokenFactsStore {
  return new TokenFactsCache(options);
}

class TokenFactsCache implements TokenFactsStore {
  private readonly clock: () => number;
  private readonly maxEntries: number;
  private readonly refreshMs: number;
  private readonly retryMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly logged = new Set<string>();
  private readonly configured: ReadonlySet<string>;

  constructor(private readonly options: TokenFactsOptions) {
    this.clock = options.clock ?? Date.now;
    this.maxEntries = options.maxEntries ?? 1000;
    this.refreshMs = options.refreshMs ?? TOKEN_REFRESH_MS;
    this.retryMs = options.retryMs ?? 60_000;
    this.configured = new Set(options.configured ?? []);
  }

  readonly get = (tokenId: string): TokenFacts | undefined => this.entries.get(tokenId)?.facts;

  readonly units = (tokenId: string): UnitFacts | undefined => {
    const facts = this.get(tokenId);
    const displayName = this.options.names?.get(tokenId);
    if (displayName === undefined) return facts;
    return { decimals: facts?.decimals, symbol: facts?.symbol, displayName };
  };

  failure(tokenId: string): FactsFailure | undefined {
    return this.entries.get(tokenId)?.failure;
  }

  async ensure(tokenIds: Iterable<string>, signal?: AbortSignal): Promise<void> {
    const now = this.clock();
    const waits: Promise<void>[] = [];
    let reads = 0;
    for (const id of new Set(tokenIds)) {
      const when = this.due(this.entries.get(id), now);
      if (!when || reads >= MAX_READS_PER_ENSURE) continue;
      reads++;
      const pending = this.start(id, signal, when === 'background');
      if (when === 'now') waits.push(pending);
    }
    await Promise.all(waits);
  }

  async refreshConfigured(signal?: AbortSignal): Promise<void> {
    await Promise.all([...this.configured].map((id) => this.start(id, signal, true)));
  }

  private due(entry: Entry | undefined, now: number): 'now' | 'background' | undefined {
    if (!entry) return 'now';
    if (entry.failure && !entry.facts) return now - entry.checkedAt >= this.retryMs ? 'now' : undefined;
    return now - entry.checkedAt >= (entry.failure ? this.retryMs : this.refreshMs)
      ? 'background'
      : undefined;
  }

  private start(tokenId: string, signal: AbortSignal | undefined, background = false): Promise<void> {
    const running = this.inFlight.get(tokenId);
    if (running) return running;
    const pending = this.read(tokenId, signal, background).finally(() => this.inFlight.delete(tokenId));
    this.inFlight.set(tokenId, pending);
    return pending;
  }

  private async read(tokenId: string, signal: AbortSignal | undefined, background: boolean): Promise<void> {
    const previous = this.entries.get(tokenId);
    try {
      const body = await this.options.fetch(tokenId, { ...(signal ? { signal } : {}), background });
      if (body === null) {
        this.report(tokenId, 'not_found', 'the query service knows no such token (404)');
        return this.store(tokenId, { failure: 'not_found', checkedAt: this.clock() });
      }
      const facts = readTokenInfo(tokenId, body);
      if (facts.refused)
        this.report(tokenId, 'refused', `the service's answer was refused: ${facts.refused}`);
      else for (const reason of FAILURES) this.logged.delete(`${tokenId} ${reason}`);
      this.store(tokenId, {
        facts,
        ...(facts.refused ? { failure: 'refused' } : {}),
        checkedAt: this.clock(),
      });
    } catch (err) {
      if (signal?.aborted) return;
      this.report(tokenId, 'error', `reading its facts failed: ${(err as Error).message}`);
      // Facts read before stay in use: decimals never change, and an older symbol beats none.
      const kept = previous?.facts ? { facts: previous.facts } : {};
      this.store(tokenId, { ...kept, failure: 'error', checkedAt: this.clock() });
    }
  }

  /** Keeps the entry, forgetting the least recently stored tokens met in records beyond maxEntries. */
  private store(tokenId: string, entry: Entry): void {
    this.entries.delete(tokenId);
    this.entries.set(tokenId, entry);
    let lazy = 0;
    for (const id of this.entries.keys()) if (!this.configured.has(id)) lazy++;
    for (const id of this.entries.keys()) {
      if (lazy <= this.maxEntries) break;
      if (this.configured.has(id)) continue;
      this.entries.delete(id);
      lazy--;
    }
    this.options.metrics?.tokenFactsCached.set(this.entries.size);
  }

  private report(tokenId: string, reason: FactsFailure, detail: string): void {
    this.options.metrics?.tokenFactsFailures.inc({ reason });
    const key = `${tokenId} ${reason}`;
    if (this.logged.has(key)) return;
    if (this.logged.size >= 4 * this.maxEntries) this.logged.clear();
    this.logged.add(key);
    this.options.log?.warn(
      { tokenId, reason, detail },
      `token ${tokenId}: ${detail}; its amounts are shown in raw units until its facts can be read`,
    );
  }
}

/** Reads the configured tokens now, then every `intervalMs` until `signal` aborts. Resolves on abort. */
export async function runTokenRefresh(
  store: TokenFactsStore,
  intervalMs: number,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    await store.refreshConfigured(signal);
    try {
      await sleep(intervalMs, signal);
    } catch {
      return;
    }
  }
}
