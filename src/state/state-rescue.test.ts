import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox } from '../delivery/outbox.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { createLogger } from '../observability/logger.js';
import { openStateStore, type StateStore } from '../state/store.js';
import { rescueState } from './state-rescue.js';

describe('rescueState', () => {
  let dir: string;
  let store: StateStore;
  let lines: string[];
  const log = () => createLogger({ destination: { write: (line: string) => void lines.push(line) } });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'state-rescue-'));
    store = openStateStore({ dir: join(dir, 'state') });
    lines = [];
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function enqueue(ids: readonly string[]) {
    const outbox = createOutbox(store, () => 1000);
    store.transaction(() => ids.forEach((id) => outbox.enqueue(testAlert({ id }), ['ops'])));
    return outbox;
  }

  it('copies a deleted database back, pending deliveries included', async () => {
    const outbox = enqueue(['a', 'b']);
    rmSync(join(dir, 'state'), { recursive: true });

    const outcome = await rescueState(store, outbox, log());
    const rescued = openStateStore({ dir: join(dir, 'state'), pid: 1 });
    const pending = createOutbox(rescued, () => 2000)
      .due(2000)
      .map((r) => r.alert.id);
    rescued.close();

    expect(outcome).toBe(
      `the state was copied back to ${join(dir, 'state', 'state.db')}; the next start resumes from it (2 deliveries pending)`,
    );
    expect(pending).toEqual(['a', 'b']);
  });

  it('never overwrites a file now at the path: it names the undelivered alerts instead', async () => {
    const outbox = enqueue(['a', 'b']);
    renameSync(join(dir, 'state', 'state.db'), join(dir, 'old.db'));
    writeFileSync(join(dir, 'state', 'state.db'), 'someone else');

    const outcome = await rescueState(store, outbox, log());

    expect(outcome).toBe(
      'the state could not be copied back; 2 undelivered deliveries are listed in the log',
    );
    const line = JSON.parse(lines.find((l) => l.includes('alerts not delivered')) ?? '{}') as {
      alerts?: unknown;
    };
    expect(line.alerts).toEqual([
      { alert: 'a', rule: testAlert({ id: 'a' }).ruleId, channel: 'ops' },
      { alert: 'b', rule: testAlert({ id: 'b' }).ruleId, channel: 'ops' },
    ]);
  });
});
