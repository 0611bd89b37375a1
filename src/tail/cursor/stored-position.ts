// A position as the state store gives it back, read through its cursor kind. The store is untrusted (a file
// edited by hand, a row of another version, a disk that lied): a value the kind cannot have written is refused
// with the stream, the kind and what to do, never read as 0 or as the start of the stream.
import type { CursorKind, StoredPosition } from './cursor-kind.js';

export interface StoredAt {
  readonly stream: string;
  /** The table the value came from (`tail_cursor`, `tail_position`, …), for the fix. */
  readonly table: string;
  /** Which part: `safe`, `read` or `seen`. */
  readonly part: string;
}

/** The position `raw` holds; throws a message naming the stream, the kind and the fix when it holds none. */
export function readStored<P>(kind: CursorKind<P>, raw: unknown, at: StoredAt): P {
  try {
    if (typeof raw !== 'bigint' && typeof raw !== 'string')
      throw new Error(`a ${raw === null ? 'null' : typeof raw} is no stored position`);
    return kind.decode(raw);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `tail: the stored ${at.part} of stream ${at.stream} (a ${kind.name} cursor) cannot be read (${why}); ` +
        "it is not reset on a guess. Stop the daemon and delete that stream's rows from " +
        `${at.table} (the stream then starts at the head like a new one, and \`ledger-sentinel state ` +
        'reset-cursor` can set a timestamp cursor back), or restore the state from a backup',
    );
  }
}

/** An integer position in the text columns: 20 digits, zero-padded, so that text order is numeric order. */
const PADDED = /^\d{20}$/;

/** The text a position is kept as in a text column, sorting as the positions do. */
export function storedText(kindName: string, stored: StoredPosition): string {
  if (typeof stored === 'string') return stored;
  if (stored < 0n || stored >= 10n ** 20n)
    throw new Error(`tail: a ${kindName} position ${stored} has no stored form (0 to 20 digits)`);
  return stored.toString().padStart(20, '0');
}

/** What storedText() was given back, from the text it wrote. */
export function fromStoredText(raw: unknown): unknown {
  return typeof raw === 'string' && PADDED.test(raw) ? BigInt(raw) : raw;
}
