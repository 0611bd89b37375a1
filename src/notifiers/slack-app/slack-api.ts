// The two Web API calls of the Slack app kind through @slack/web-api's WebClient, with its own retries off
// (retries: 0, rejectRateLimitedCalls: the shared delivery stage retries and honours the Retry-After), its logger
// silenced (our log lines come from the delivery stage), our abort signal linked into its fetch, and every
// failure classified (classify.ts). Calls wait for the channel's pacer; a Retry-After pauses it.
import { WebClient, type FetchFunction, type Logger as SlackLogger, LogLevel } from '@slack/web-api';
import type { Pacer } from '../notifier-kind.js';
import { linkSignal } from '../../ledger/linked-signal.js';
import { NotifyError } from '../notifier.js';
import { classifySlackError } from './classify.js';

export interface SlackApiOptions {
  readonly token: string;
  /** Without a trailing slash (httpUrl). */
  readonly apiUrl: string;
  readonly timeoutMs: number;
  readonly what: string;
  readonly now: () => number;
  readonly maxRetryAfterMs: number;
  readonly pacer: Pacer;
}

export interface SlackApi {
  /** chat.postMessage; resolves with the channel id and ts Slack answered. */
  post(args: object, signal: AbortSignal): Promise<{ channel: string; ts: string }>;
  /** chat.update. */
  update(args: object, signal: AbortSignal): Promise<void>;
}

export function createSlackApi(options: SlackApiOptions): SlackApi {
  async function call(method: 'chat.postMessage' | 'chat.update', args: object, signal: AbortSignal) {
    await options.pacer.wait(signal);
    let seen: { status: number; retryAfter: string | null } | undefined;
    const fetchWithSignal: FetchFunction = async (url, init) => {
      const link = linkSignal([signal, init?.signal ?? undefined]);
      try {
        const response = await fetch(url, { ...init, signal: link.signal });
        seen = { status: response.status, retryAfter: response.headers.get('retry-after') };
        return response;
      } finally {
        link.dispose();
      }
    };
    const client = new WebClient(options.token, {
      slackApiUrl: `${options.apiUrl}/`,
      fetch: fetchWithSignal,
      timeout: options.timeoutMs,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logger: SILENT,
      logLevel: LogLevel.ERROR,
      allowAbsoluteUrls: false,
    });
    try {
      return (await client.apiCall(method, args as Record<string, unknown>)) as unknown as Record<
        string,
        unknown
      >;
    } catch (err) {
      const classified = classifySlackError(err, {
        what: options.what,
        now: options.now(),
        maxRetryAfterMs: options.maxRetryAfterMs,
        ...(seen ? { status: seen.status, retryAfter: seen.retryAfter } : {}),
      });
      if (classified.retryAfterMs) options.pacer.pause(classified.retryAfterMs, classified.askedRetryAfterMs);
      throw classified;
    }
  }
  return {
    async post(args, signal) {
      const result = await call('chat.postMessage', args, signal);
      const { channel, ts } = result;
      if (typeof channel !== 'string' || typeof ts !== 'string' || !/^\d{1,12}\.\d{1,9}$/.test(ts))
        throw new NotifyError(
          `${options.what}: Slack accepted the message without a channel and ts (permanent)`,
          {
            retryable: false,
            reason: 'slack_no_ts',
          },
        );
      return { channel, ts };
    },
    async update(args, signal) {
      await call('chat.update', args, signal);
    },
  };
}

/** The library's own log lines are dropped: they could quote request bodies, and ours come from deliver.ts. */
const SILENT: SlackLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};
