// Who holds a state dir. The lock itself is SQLite's (locking_mode=EXCLUSIVE, an OS-level lock that dies with
// the process, kill -9 included); this record only lets a second daemon name the holder in its error message.
// A stale record is harmless: it is read only when the lock is actually held, and rewritten by every new owner.
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface StateOwner {
  /** Unknown when the store was opened in-process by a test or tool that did not pass one. */
  readonly pid: number | undefined;
  readonly host: string;
  /** ISO 8601. */
  readonly started: string;
}

const FILE = 'owner.json';

export function writeStateOwner(dir: string, pid: number | undefined, now: number): StateOwner {
  const owner: StateOwner = { pid, host: hostname(), started: new Date(now).toISOString() };
  writeFileSync(join(dir, FILE), `${JSON.stringify(owner)}\n`);
  return owner;
}

/** The recorded owner, or undefined when there is none or it is not one (bounded: the file is ours, but small). */
export function readStateOwner(dir: string): StateOwner | undefined {
  try {
    const text = readFileSync(join(dir, FILE), 'utf8').slice(0, 1000);
    const value = JSON.parse(text) as Partial<StateOwner>;
    if (typeof value.host !== 'string') return undefined;
    return {
      pid: typeof value.pid === 'number' ? value.pid : undefined,
      host: value.host.slice(0, 200),
      started: typeof value.started === 'string' ? value.started.slice(0, 40) : 'unknown',
    };
  } catch {
    return undefined;
  }
}
