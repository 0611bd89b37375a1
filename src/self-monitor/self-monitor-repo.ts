// Self-monitoring state in the state store (table self_monitor), so a restart neither fires again what was
// firing nor forgets to resolve it, and a notifier's run of failed deliveries survives it. Synchronous: the
// runtime saves it in the same store.transaction that enqueues the alerts it goes with.
import type { Alert } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';
import type { SelfMonitorState } from './self-monitor.js';

export interface SelfMonitorRepo {
  load(): SelfMonitorState;
  save(state: SelfMonitorState): void;
}

export function createSelfMonitorRepo(store: StateStore): SelfMonitorRepo {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS self_monitor (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (kind, key)
  )`);
  const all = db.prepare<[], { kind: string; key: string; value: string }>(
    'SELECT kind, key, value FROM self_monitor ORDER BY kind, key',
  );
  const clear = db.prepare('DELETE FROM self_monitor');
  const insert = db.prepare<[string, string, string]>(
    'INSERT INTO self_monitor (kind, key, value) VALUES (?, ?, ?)',
  );
  return {
    load() {
      const state: SelfMonitorState = { firing: new Map(), streaks: new Map() };
      for (const row of all.all()) {
        if (row.kind === 'firing') state.firing.set(row.key, JSON.parse(row.value) as Alert);
        // The counters a streak is measured against start again from 0 in a new process.
        else if (row.kind === 'streak')
          state.streaks.set(row.key, { failed: 0, sent: 0, streak: Number(row.value) });
      }
      return state;
    },
    save(state) {
      clear.run();
      for (const [key, alert] of state.firing) insert.run('firing', key, JSON.stringify(alert));
      for (const [name, s] of state.streaks) if (s.streak > 0) insert.run('streak', name, String(s.streak));
    },
  };
}
