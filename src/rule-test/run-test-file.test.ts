// The rule test runner on the rule kinds that need more than one record: absence (the clock runs on with
// eval_until), windows (they fire on the Nth match and resolve when they drain), call traces (fetched only when a
// rule needs them), and times to the nanosecond. Each case prints what the CLI prints.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTestFile } from './load-test-file.js';
import { runTestFile } from './run-test-file.js';

const ABSENCE = `rules:
  - id: quiet-account
    summary: '{{account.name}} quiet since {{last_seen_utc}}'
    when: { debit: '1 tinybar' }
    window: { duration: 2h, absent: true }
    throttle: 1h
`;
const COUNT = `rules:
  - id: burst
    summary: '{{account.name}}: {{match_count}} failures in {{window_duration}}'
    when: { result: fail }
    window: { duration: 10m, count: 3 }
`;
const TRACE = `rules:
  - id: reverted-call
    summary: '{{account.name}}: reverted call in {{transaction_id}}'
    when: { type: [CONTRACTCALL], action: { reverted: true, min_value: '1 hbar' } }
`;
const HEAD = (rules: string) => `rule_files: [${rules}]
accounts:
  - { id: 0.0.1234, name: treasury-hot }
  - { id: 0.0.2002, name: payroll }
start: 2026-01-01T00:00:00Z
tests:
`;
const DEBIT = (at: string) => `{ at: ${at}, tx: { transfers: { 0.0.1234: -1 hbar, 0.0.5555: +1 hbar } } }`;
const FAIL = (at: string) => `{ at: ${at}, tx: { result: INVALID_SIGNATURE } }`;

describe('rule test runner', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-runner-'));
    writeFileSync(join(dir, 'absence.yaml'), ABSENCE);
    writeFileSync(join(dir, 'count.yaml'), COUNT);
    writeFileSync(join(dir, 'trace.yaml'), TRACE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function lines(rules: string, tests: string): Promise<string[]> {
    writeFileSync(join(dir, 't.yaml'), `${HEAD(rules)}${tests}`);
    const loaded = loadTestFile('t.yaml', { cwd: dir, env: {} });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    return (await runTestFile(loaded.loaded)).flatMap((r) => r.lines);
  }

  it('absence: fires per account once the window has passed with no match, repeats after the throttle', async () => {
    const out = await lines(
      'absence.yaml',
      `  - name: quiet
    input:
      - ${DEBIT('+30m')}
    eval_until: +3h
    expect:
      - { at: +2h, rule: quiet-account, account: payroll, state: firing, summary: 'payroll quiet since 2026-01-01T00:00:00.000000000Z' }
      - { at: +2h30m, rule: quiet-account, account: treasury-hot, state: firing }
      - { at: +3h, rule: quiet-account, account: payroll, state: firing }
`,
    );

    expect(out).toEqual(['ok   t.yaml:7:11 quiet']);
  });

  it('batch: an inner transaction alerts with its own payer and the batch key', async () => {
    writeFileSync(
      join(dir, 'batch.yaml'),
      `rules:
  - id: batched
    summary: '{{batch}} paid by {{batch_payer}}, key {{batch_key_text}}, batch {{batch_timestamp}}'
    when: { batch: inner }
`,
    );
    const key = 'ab'.repeat(32);
    const inner = (at: string, batchKey: string) =>
      `{ at: ${at}, tx: { payer: 0.0.5555, transfers: { 0.0.5555: -1 hbar, 0.0.1234: +1 hbar }, parent: +0s, batch_key: '${batchKey}' } }`;
    const out = await lines(
      'batch.yaml',
      `  - name: inner
    input:
      - { at: +0s, tx: { type: ATOMICBATCH, payer: 0.0.1234 } }
      - ${inner('+1s', `0x1220${key}`)}
    expect:
      - { at: +1s, rule: batched, account: treasury-hot, state: firing, summary: 'inner paid by 0.0.5555, key ED25519 ${key}, batch 1767225600.000000000' }
`,
    );
    writeFileSync(
      join(dir, 'bad.yaml'),
      `${HEAD('batch.yaml')}  - name: bad\n    input:\n      - ${inner('+1s', '0x123')}\n`,
    );
    const bad = loadTestFile('bad.yaml', { cwd: dir, env: {} });

    expect(out).toEqual(['ok   t.yaml:7:11 inner']);
    expect(bad.ok ? [] : bad.issues.map((i) => `${i.line} ${i.path} ${i.message}`)).toEqual([
      '9 tests.0.input.0.tx.batch_key expected the batch key as 0x-hex, like 0x1220 and 64 hex digits (an ED25519 key)',
    ]);
  });

  it('tokens: a declared token decides amounts in its units and shows them; an undeclared one never matches', async () => {
    writeFileSync(
      join(dir, 'usdc.yaml'),
      `rules:
  - id: usdc-out
    summary: '{{account.name}}: {{token_amount_text}} of {{token_name}}'
    when: { token_debit: { token_id: 0.0.456858, min: '10 USDC' } }
`,
    );
    const file = (tokens: string) => `rule_files: [usdc.yaml]
accounts:
  - { id: 0.0.1234, name: treasury-hot }
${tokens}start: 2026-01-01T00:00:00Z
tests:
  - name: units
    input:
      - { at: +1s, tx: { token_transfers: { 0.0.456858: { 0.0.1234: -9999999, 0.0.5555: +9999999 } } } }
      - { at: +2s, tx: { token_transfers: { 0.0.456858: { 0.0.1234: -10000000, 0.0.5555: +10000000 } } } }
    expect:
      - { at: +2s, rule: usdc-out, account: treasury-hot, state: firing, summary: 'treasury-hot: -10 USDC of treasury-usdc' }
`;
    const run = async (name: string, tokens: string) => {
      writeFileSync(join(dir, name), file(tokens));
      const loaded = loadTestFile(name, { cwd: dir, env: {} });
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
      return (await runTestFile(loaded.loaded)).flatMap((r) => r.lines);
    };

    const declared = await run(
      'declared.yaml',
      'tokens:\n  - { id: 0.0.456858, decimals: 6, symbol: USDC, name: treasury-usdc }\n',
    );
    const undeclared = await run('undeclared.yaml', '');

    expect(declared).toEqual(['ok   declared.yaml:8:11 units']);
    expect(undeclared.slice(0, 2)).toEqual([
      'FAIL undeclared.yaml:6:11 units',
      '  undeclared.yaml:11:9 expected alert did not fire:',
    ]);
  });

  it('absence: without eval_until the clock stops at the last input, and nothing is overdue yet', async () => {
    const out = await lines(
      'absence.yaml',
      `  - name: too short
    input:
      - ${DEBIT('+1h')}
    expect:
      - { at: +2h, rule: quiet-account, account: payroll, state: firing }
`,
    );

    expect(out).toEqual([
      'FAIL t.yaml:7:11 too short',
      '  t.yaml:11:9 expected alert did not fire:',
      '    - { at: +2h, rule: quiet-account, account: payroll, state: firing }',
    ]);
  });

  it('absence: a clock step that is not a divisor moves the firing time to the step after the deadline', async () => {
    const out = await lines(
      'absence.yaml',
      `  - name: coarse clock
    eval_interval: 7m
    eval_until: +2h10m
    expect:
      - { at: +2h6m, rule: quiet-account, account: payroll, state: firing }
      - { at: +2h6m, rule: quiet-account, account: treasury-hot, state: firing }
`,
    );

    expect(out).toEqual(['ok   t.yaml:7:11 coarse clock']);
  });

  it('count window: fires on the third match within 10m, resolves at the step where fewer than three remain', async () => {
    const out = await lines(
      'count.yaml',
      `  - name: burst
    input: [${FAIL('+0s')}, ${FAIL('+1m')}, ${FAIL('+2m')}, ${FAIL('+3m')}]
    eval_until: +20m
    expect:
      - { at: +2m, rule: burst, account: treasury-hot, state: firing, summary: 'treasury-hot: 3 failures in 10m' }
      - { at: +11m, rule: burst, account: treasury-hot, state: resolved }
  - name: spread out
    input: [${FAIL('+0s')}, ${FAIL('+6m')}, ${FAIL('+12m')}]
`,
    );

    expect(out).toEqual(['ok   t.yaml:7:11 burst', 'ok   t.yaml:13:11 spread out']);
  });

  it('call trace: the rule sees the trace given with the transaction; no trace reads as no actions', async () => {
    const out = await lines(
      'trace.yaml',
      `  - name: traces
    input:
      - { at: +0s, tx: { type: CONTRACTCALL, entity_id: 0.0.5005 }, trace: [{}, { call_depth: 1, value: 2 hbar, result_data_type: REVERT_REASON }] }
      - { at: +1s, tx: { type: CONTRACTCALL, entity_id: 0.0.5005 }, trace: [{ value: 2 hbar }] }
      - { at: +2s, tx: { type: CONTRACTCALL, entity_id: 0.0.5005 } }
      - { at: +3s, tx: { type: CONTRACTCALL, entity_id: 0.0.5005, payer: 0.0.2002 }, trace: [{ value: 5 hbar, result_data_type: ERROR }] }
    expect:
      - { at: +0s, rule: reverted-call, account: treasury-hot, state: firing, summary: 'treasury-hot: reverted call in 0.0.1234-1767225600-000000000' }
      - { at: +3s, rule: reverted-call, account: payroll, state: firing, summary: 'payroll: reverted call in 0.0.2002-1767225603-000000000' }
`,
    );

    expect(out).toEqual(['ok   t.yaml:7:11 traces']);
  });

  it('times are exact to the nanosecond, in every form', async () => {
    const out = await lines(
      'count.yaml',
      `  - name: nanoseconds
    input: [${FAIL("'1767225600.000000001'")}, ${FAIL('2026-01-01T00:00:00.000000002Z')}, ${FAIL('+0.000000003s')}]
    expect:
      - { at: '+3ns', rule: burst, state: firing }
  - name: one nanosecond off
    input: [${FAIL("'1767225600.000000001'")}, ${FAIL('2026-01-01T00:00:00.000000002Z')}, ${FAIL('+3ns')}]
    expect:
      - { at: 2026-01-01T00:00:00.000000004Z, rule: burst, state: firing }
`,
    );

    expect(out).toEqual([
      'ok   t.yaml:7:11 nanoseconds',
      'FAIL t.yaml:11:11 one nanosecond off',
      '  t.yaml:14:9 expected alert differs (at):',
      '    - { at: 2026-01-01T00:00:00.000000004Z, rule: burst, state: firing }',
      "    + { at: 2026-01-01T00:00:00.000000003Z, rule: burst, account: 0.0.1234, state: firing, summary: 'treasury-hot: 3 failures in 10m' }",
    ]);
  });

  it('refuses a clock that would take more than a million steps', () => {
    writeFileSync(
      join(dir, 't.yaml'),
      `${HEAD('count.yaml')}  - name: forever\n    eval_interval: 1ms\n    eval_until: +365d\n`,
    );

    const loaded = loadTestFile('t.yaml', { cwd: dir, env: {} });

    expect(loaded.ok ? [] : loaded.issues).toEqual([
      {
        file: 't.yaml',
        line: 8,
        col: 20,
        path: 'tests.0.eval_interval',
        message:
          'the clock would take 31536000000 steps of eval_interval to reach the last time; at most 1000000: set a longer eval_interval',
      },
    ]);
  });
});
