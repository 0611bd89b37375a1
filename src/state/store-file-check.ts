// Is the database we have open still the one at state.dir? After the dir is deleted (or the volume swapped) SQLite
// keeps writing to the unlinked file without an error, and everything written from then on is lost at the next
// start. Comparing the path's device and inode with the ones we opened catches that, cheaply (one stat).
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { osReason } from '../config/os-reason.js';

export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

export function fileIdentity(path: string): FileIdentity {
  const { dev, ino } = statSync(path);
  return { dev, ino };
}

/** Why the store at path is no longer the one opened (undefined while it is). */
export function storeFileCheck(path: string, opened: FileIdentity): string | undefined {
  let now: FileIdentity;
  try {
    now = fileIdentity(path);
  } catch (err) {
    return `${path} is gone (${osReason(err)}): the state dir was deleted or unmounted while running`;
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino)
    return `${path} was replaced by another file while running`;
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (err) {
    return `state dir ${dirname(path)} is no longer writable (${osReason(err)})`;
  }
  return undefined;
}
