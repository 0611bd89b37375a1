import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from '../../test/integration/cli-harness.js';

const CONFIG = `ledger: { base_url: http://127.0.0.1:5551 }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: console }
`;

const RULE = `rules:
  - id: large-debit
    when: { debit: '1000 hbar' }
    summary: big
    notify: [ops-slack]
`;

describe('check', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-check-'));
    mkdirSync(join(dir, 'rules'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function write(config: string, rule: string, other?: string) {
    writeFileSync(join(dir, 'config.yaml'), config);
    writeFileSync(join(dir, 'rules', 'a.yaml'), rule);
    if (other) writeFileSync(join(dir, 'rules', 'b.yaml'), other);
  }

  it('says what it validated and exits 0 when all is valid', async () => {
    write(CONFIG, RULE);

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(0);
    expect(run.stdout()).toContain('valid: 1 accounts, 1 rules from 1 path(s), 1 notifiers');
  });

  it('prints every config error as file:line:col and exits 1', async () => {
    write(`${CONFIG}tail: { poll_interval: soon }\nhttp: { prot: 80 }\n`, RULE);

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(1);
    expect(run.stderr().split('\n')).toEqual([
      expect.stringMatching(/config\.yaml:7:\d+ tail\.poll_interval: expected a duration/),
      expect.stringMatching(/config\.yaml:8:\d+ http\.prot: unknown key "prot"; did you mean "port"\?/),
      '2 errors',
      '',
    ]);
  });

  it('prints every rule error with its file position, including notifiers the config lacks', async () => {
    const other = RULE.replace('large-debit', 'other').replace('[ops-slack]', '[ops-slak]');
    write(CONFIG, RULE.replace("'1000 hbar'", "'lots'"), other);

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/rules\/a\.yaml:3:\d+ when\.debit: /);
    expect(run.stderr()).toMatch(
      /rules\/b\.yaml:5:\d+ notify\.0: unknown notifier "ops-slak"; did you mean "ops-slack"\?/,
    );
    expect(run.stderr()).toContain('2 errors');
  });

  it('refuses a notifier that run would refuse, without echoing its secret', async () => {
    write(
      CONFIG.replace(
        '{ kind: console }',
        '{ kind: slack, webhook_url: "ftp://hooks.example.com/T0/SECRETtoken" }',
      ),
      RULE,
    );

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(1);
    expect(run.stderr()).toMatch(
      /config\.yaml:6:\d+ notifiers\.ops-slack\.webhook_url: expected an http\(s\) URL/,
    );
    expect(run.stderr()).not.toContain('SECRETtoken');
  });
});
