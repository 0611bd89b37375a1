// Timers that end only when a test says so: sleep() waits for fire() or for its signal to abort. A test decides
// when a grace period or an idle wait is over, instead of waiting on real time.
import { once, EventEmitter } from 'node:events';

export interface ManualTimers {
  /** The injectable sleep: resolves on fire(ms) or as soon as the signal aborts; a sleep of 0 ms at once. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Resolves once a sleep of exactly `ms` is waiting. */
  waitForSleep(ms: number): Promise<void>;
  /** Ends every waiting sleep of exactly `ms`. */
  fire(ms: number): void;
}

export function manualTimers(): ManualTimers {
  const waiting = new Set<{ readonly ms: number; readonly end: () => void }>();
  const events = new EventEmitter();
  const isWaiting = (ms: number) => [...waiting].some((timer) => timer.ms === ms);
  return {
    sleep(ms, signal) {
      if (signal.aborted || ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = {
          ms,
          end() {
            waiting.delete(timer);
            signal.removeEventListener('abort', timer.end);
            resolve();
          },
        };
        waiting.add(timer);
        signal.addEventListener('abort', timer.end, { once: true });
        events.emit('sleep');
      });
    },
    async waitForSleep(ms) {
      while (!isWaiting(ms)) await once(events, 'sleep');
    },
    fire(ms) {
      for (const timer of [...waiting]) if (timer.ms === ms) timer.end();
    },
  };
}
