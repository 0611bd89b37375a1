// What a notifier is created with in tests: a test clock, its pacers, a captured logger.
import { createPacers } from '../../src/delivery/pacer.js';
import { testClock } from './clock.js';
import { captureLogs } from './log-capture.js';

export function testNotifierDeps() {
  const clock = testClock();
  return {
    now: clock.now,
    sleep: clock.sleep,
    pacers: createPacers(clock),
    logger: captureLogs().logger,
    stdout: process.stdout,
  };
}
