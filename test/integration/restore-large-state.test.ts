// A daemon that ran at the ledger's peak for ten minutes holds hundreds of thousands of pending count groups in
// its state store; a restart, a failover, a reload or an engine reset after a failed transaction restores the
// engine from them. The restore must stream the rows: parsed all at once they outgrow the chart's heap cap and
// the daemon could not start again (docs/performance.md, section 6).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { fillRuleState } from '../helpers/large-rule-state.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-large-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('restores 200,000 stored groups in a process whose heap is capped at 48 MiB', async () => {
  const groups = 200_000;
  fillRuleState(dir, groups);
  // Parsing every row before building the engine ran out of heap at this cap; streamed, the restore holds the
  // engine's own compact state (about 26 MiB).
  const { stdout } = await run(
    process.execPath,
    [
      '--max-old-space-size=48',
      '--conditions=source',
      '--import',
      'tsx',
      join(import.meta.dirname, '../helpers/large-rule-state.ts'),
      dir,
    ],
    { cwd: join(import.meta.dirname, '../..'), timeout: 120_000 },
  );
  expect(stdout.trim()).toBe(`restored ${groups}`);
}, 180_000);
