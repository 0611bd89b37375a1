// The tailers' step for the records of a page that could not be read: each is kept in quarantine (once),
// counted and reported once, before the stream's cursor can move past it. Re-reads of the same record (overlap
// re-scans, sweeps, restarts) find it already kept and say nothing.
import type { InvalidRecord } from '../../ledger/page.js';
import type { TailSourceName } from '../streams/record-handler.js';
import type { TailContext } from '../poll/poll-context.js';

export interface QuarantineWhere {
  readonly stream: string;
  readonly source: TailSourceName;
  /** The stream's own account (per-account streams). */
  readonly account?: string;
  /** The global stream: watched ids to look for in the raw text, to say whose record it probably is. */
  readonly watched?: ReadonlySet<string>;
}

export function quarantinePage(
  ctx: TailContext,
  page: { readonly url: string; readonly invalid?: readonly InvalidRecord[] },
  where: QuarantineWhere,
): void {
  if (!ctx.quarantine || !page.invalid?.length) return;
  for (const bad of page.invalid) {
    const accounts = where.account !== undefined ? [where.account] : namedAccounts(bad.raw, where.watched);
    const outcome = ctx.quarantine.add({
      stream: where.stream,
      source: where.source,
      accounts,
      timestamp: bad.timestamp,
      transactionId: bad.transactionId,
      path: bad.path,
      field: bad.field,
      reason: bad.message,
      pageUrl: page.url,
      index: bad.index,
      raw: bad.raw,
    });
    const fields = { stream: where.stream, timestamp: bad.timestamp, transactionId: bad.transactionId };
    if (outcome === 'added') {
      ctx.metrics?.quarantined.inc({ source: where.source });
      ctx.log?.warn(
        { ...fields, accounts, path: bad.path, reason: bad.message },
        'ledger record quarantined',
      );
    } else if (outcome === 'full' && (ctx.firstTime?.(`quarantine-full|${where.stream}`) ?? true)) {
      ctx.metrics?.quarantined.inc({ source: where.source });
      ctx.log?.error({ ...fields, path: bad.path }, 'quarantine full; record not kept');
    }
  }
}

const ENTITY_ID_TEXT = /"(\d{1,10}\.\d{1,10}\.\d{1,10})"/g;
const MAX_NAMED = 10;

/** Watched ids quoted anywhere in the raw text (bounded: the raw text is cut at 64 KiB). */
function namedAccounts(raw: string, watched: ReadonlySet<string> | undefined): string[] {
  if (!watched || watched.size === 0) return [];
  const found = new Set<string>();
  for (const m of raw.matchAll(ENTITY_ID_TEXT)) {
    if (watched.has(m[1] as string)) found.add(m[1] as string);
    if (found.size >= MAX_NAMED) break;
  }
  return [...found];
}
