// One request for the newest visible transaction: the head the per-account polls settle against, the
// query-service lag, and a sample of the ledger's rate for the strategy choice.
import { formatTimestamp, parseTimestamp } from '../ledger/timestamp.js';
import { HEAD_PRIORITY, type TailContext } from './tail-context.js';

export async function probeHead(ctx: TailContext, signal: AbortSignal): Promise<void> {
  const before = ctx.head.head;
  const pages = ctx.source.transactions(
    { after: formatTimestamp(before ?? 0n), order: 'desc', limit: ctx.pageLimit },
    { signal, priority: HEAD_PRIORITY },
  );
  for await (const page of pages) {
    const first = page.records[0];
    const last = page.records.at(-1);
    if (first && last) {
      const newest = parseTimestamp(first.consensus_timestamp);
      ctx.head.observe(newest);
      // A full page spans its own rows; a short one is every row since the previous head.
      if (page.records.length >= ctx.pageLimit || before === undefined)
        ctx.head.sampleRate(page.records.length, parseTimestamp(last.consensus_timestamp), newest);
      else ctx.head.sampleRate(page.records.length + 1, before, newest);
    }
    break; // newest first: the first page is all we want
  }
}
