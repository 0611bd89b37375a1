// The daemon's wall clock under libfaketime (Debian package `faketime`): the process is started with it preloaded,
// and the offset changes while it runs through FAKETIME_TIMESTAMP_FILE. Only the wall clock is faked: a real host
// steps CLOCK_REALTIME, never CLOCK_MONOTONIC.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
].find((p) => existsSync(p));

export interface FakeClock {
  /** The environment to start the process with. */
  readonly env: Record<string, string>;
  /** Sets the wall clock `offsetS` seconds off real time (0: real time). */
  set(offsetS: number): void;
}

/** A fake clock whose offset file lives in `dir`; undefined when libfaketime is not installed. */
export function fakeClock(dir: string): FakeClock | undefined {
  if (!LIBFAKETIME) return undefined;
  const file = join(dir, 'faketime');
  const set = (offsetS: number) => writeFileSync(file, `${offsetS >= 0 ? '+' : ''}${Math.trunc(offsetS)}\n`);
  set(0);
  return {
    env: {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    },
    set,
  };
}
