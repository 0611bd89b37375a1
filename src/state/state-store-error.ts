// Why the state store cannot be opened, as a message that says what, where and how to fix: another daemon
// holds the dir, the database is corrupt, the filesystem is read-only or the path is wrong.
import { accessSync, constants } from 'node:fs';
import { osReason } from '../config/os-reason.js';
import { readStateOwner } from './state-owner.js';

export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';
}

const CORRUPT = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);
const OS_CODES = new Set(['EROFS', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'ENOSPC', 'ENOENT']);

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The fix for an OS error on the state dir, by code. */
function osFix(code: string): string {
  if (code === 'EROFS') return 'mount a writable volume at state.dir';
  if (code === 'EACCES' || code === 'EPERM')
    return 'make it writable by the daemon user (Kubernetes: fsGroup), or point state.dir at a writable volume';
  if (code === 'ENOSPC') return 'free space on that volume or give it more';
  return 'point state.dir at a directory the daemon can create and write';
}

/** SQLite says only "unable to open database file" or "readonly database"; the OS says why. */
function osCauseOf(dir: string): string | undefined {
  try {
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (err) {
    return codeOf(err);
  }
}

function inUse(dir: string): StateStoreError {
  const owner = readStateOwner(dir);
  const holder = owner
    ? `pid ${owner.pid ?? 'unknown'} on host ${owner.host} (started ${owner.started})`
    : 'another process (no owner record)';
  return new StateStoreError(
    `state dir ${dir} is in use by ${holder}: stop that daemon, or give this one its own state.dir ` +
      '(one state dir per replica)',
  );
}

/** Maps an error from opening the store at dir (database file path) to a StateStoreError. */
export function stateStoreError(err: unknown, dir: string, path: string): StateStoreError {
  let code = codeOf(err);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return inUse(dir);
  if (code !== undefined && CORRUPT.has(code))
    return new StateStoreError(
      `state database ${path} is corrupt or not a SQLite database (${code}): stop the daemon, move the file ` +
        `aside (mv ${path} ${path}.corrupt) and start again. The new database starts every cursor from ` +
        'tail.start; the pending deliveries, alert states and dedup window in the old file are lost',
    );
  if (code === 'SQLITE_CANTOPEN' || code?.startsWith('SQLITE_READONLY') || code?.startsWith('SQLITE_IOERR'))
    code = osCauseOf(dir) ?? code;
  if (code !== undefined && OS_CODES.has(code))
    return new StateStoreError(`state dir ${dir}: ${osReason({ code })}: ${osFix(code)}`);
  const detail = err instanceof Error ? err.message : String(err);
  return new StateStoreError(
    `state database ${path} cannot be opened (${code ?? 'unknown error'}: ${detail}): check that state.dir ` +
      'is a writable local directory',
  );
}
