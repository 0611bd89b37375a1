import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureCli } from '../../../test/helpers/capture-cli.js';
import { openStateStore } from '../../state/store.js';
import { createQuarantine } from '../../tail/quarantine/quarantine-store.js';
import { quarantine } from './quarantine.js';

async function run(argv: string[]) {
  const c = captureCli(argv, {}, '/');
  const code = await quarantine.run(c.ctx);
  return { code, out: c.out(), err: c.err() };
}

const RECORD = {
  stream: 'tx:0.0.1003',
  source: 'transactions' as const,
  accounts: ['0.0.1003'],
  timestamp: '1764072000.123456792',
  transactionId: '0.0.1006-1764071991-000000003',
  path: 'transactions[3].memo_base64',
  field: 'memo_base64',
  reason: 'expected string, received object',
  pageUrl: '/api/v1/transactions?account.id=0.0.1003&timestamp=gt:1764071999.000000000',
  index: 3,
  raw: '{"memo_base64":{"text":"x"}}',
};

describe('quarantine command', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-quarantine-'));
    const store = openStateStore({ dir });
    createQuarantine(store, () => Date.UTC(2026, 10, 25)).add(RECORD);
    store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists a record: key, transaction id, stream, field, reason, when', async () => {
    const { code, out } = await run(['ls', '--state-dir', dir]);

    expect(code).toBe(0);
    expect(out).toBe(
      '1764072000.123456792\t0.0.1006-1764071991-000000003\ttx:0.0.1003\tmemo_base64\t' +
        'transactions[3].memo_base64: expected string, received object\t2026-11-25T00:00:00.000Z\n',
    );
  });

  it('lists with the raw text and page as JSON lines', async () => {
    const { out } = await run(['ls', '--json', '--state-dir', dir]);

    expect(JSON.parse(out)).toMatchObject({ ...RECORD, key: RECORD.timestamp });
  });

  it('removes a record after review, then has nothing to list', async () => {
    const removed = await run(['rm', '--state-dir', dir, 'tx:0.0.1003', '1764072000.123456792']);
    const missing = await run(['rm', '--state-dir', dir, 'tx:0.0.1003', '1764072000.123456792']);
    const { out } = await run(['ls', '--state-dir', dir]);

    expect([removed.code, missing.code]).toEqual([0, 1]);
    expect(removed.out).toBe('1 record(s) removed from quarantine\n');
    expect(out).toBe('');
  });

  it.each([
    [['list'], 'expected "ls" or "rm", got "list"'],
    [['rm', '--state-dir', '/x'], 'rm: expected <stream> <key>'],
    [['ls', '--verbose'], "Unknown option '--verbose'"],
  ])('rejects %j with exit 2', async (argv, message) => {
    const { code, err } = await run(argv);

    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('says where it looked when there is no state there, and creates nothing', async () => {
    const empty = join(dir, 'nowhere');

    const { code, err } = await run(['ls', '--state-dir', empty]);

    expect(code).toBe(1);
    expect(err).toContain(`no state.db in ${empty}`);
  });
});
