// The common body of a chaos run: inject `markers` marker transactions spread evenly over `durationMs`, calling
// `tick(elapsedMs)` every 20 ms so a scenario can kill, take a sink down or bring it back on schedule.
import type { Rig } from './rig.js';
import { sleep } from './seeded.js';

export async function runMarkers(
  rig: Rig,
  options: { durationMs: number; markers: number; tick?: (elapsedMs: number) => Promise<void> | void },
): Promise<void> {
  const started = Date.now();
  let next = 0;
  for (;;) {
    const elapsed = Date.now() - started;
    while (next < options.markers && (next / options.markers) * options.durationMs <= elapsed)
      rig.mark(next++);
    if (elapsed >= options.durationMs) break;
    await options.tick?.(elapsed);
    await sleep(20);
  }
}
