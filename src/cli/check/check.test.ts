import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from '../../../test/integration/cli-harness.js';

const CONFIG = `ledger: { base_url: http://127.0.0.1:5551 }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: console }
`;

const ALIAS = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';

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

  it('prints a warning for a transaction type this version does not know, and still exits 0', async () => {
    write(CONFIG, RULE.replace("{ debit: '1000 hbar' }", '{ type: [CRYPTOTRANSFERS] }'));

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(0);
    expect(run.stderr()).toContain(
      'rules/a.yaml:3:20 when.type.0: transaction type "CRYPTOTRANSFERS" is not known to this version (the closest known is CRYPTOTRANSFER)',
    );
    expect(run.stdout()).toContain('1 notifiers, 1 warning (above)');
  });

  it('accepts every account id form, says which ids are looked up at start, and sends no request', async () => {
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const accounts = `accounts:
  - { id: '0x00000000000000000000000000000000000003eb', name: treasury-hot }
  - { id: '0x71c7656ec7ab88b098defb751b7401b5f6d8976f', name: by-evm }
  - { id: ${ALIAS}, name: by-alias }
`;
    write(CONFIG.replace(/accounts:\n.*\n/, accounts).replace('5551', String(port)), RULE);

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;
    server.close();

    expect(code).toBe(0);
    expect(run.stdout().split('\n').slice(1)).toEqual([
      `accounts[1].id 0x71c7656e…: resolved at start (and on reload) through GET http://127.0.0.1:${port}/api/v1/accounts/0x71c7656ec7ab88b098defb751b7401b5f6d8976f; until the query service knows it, it is not tailed and the lookup is retried`,
      `accounts[2].id HIQQEXWKW5…: resolved at start (and on reload) through GET http://127.0.0.1:${port}/api/v1/accounts/${ALIAS}; until the query service knows it, it is not tailed and the lookup is retried`,
      '',
    ]);
    expect(requests).toEqual([]);
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

  it('prints config errors and rule errors in one run', async () => {
    write(
      `${CONFIG}tail: { poll_interval: soon }\n`,
      RULE.replace('summary: big', "summary: '{{acount.name}}'"),
    );

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(1);
    expect(run.stderr().split('\n')).toEqual([
      expect.stringMatching(/config\.yaml:7:\d+ tail\.poll_interval: expected a duration/),
      expect.stringMatching(
        /rules\/a\.yaml:4:17 summary: unknown template variable "acount\.name"; did you mean "account\.name"\?$/,
      ),
      '2 errors',
      '',
    ]);
  });

  it('does not blame rules for references into a config section that is itself invalid', async () => {
    const config = CONFIG.replace(
      '{ id: 0.0.1003, name: treasury-hot }',
      '{ id: 0.0.1003, name: treasury-hot, priority: high }',
    );
    write(config, RULE.replace('summary: big', 'accounts: { names: [treasury-hot] }\n    summary: big'));

    const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
    const code = await run.done;

    expect(code).toBe(1);
    expect(run.stderr().split('\n')).toEqual([
      expect.stringMatching(/config\.yaml:3:\d+ accounts\.0\.priority: /),
      '1 error',
      '',
    ]);
  });

  describe('--offline', () => {
    const SECRET_CONFIG = CONFIG.replace(
      '{ kind: console }',
      '{ kind: slack, webhook_url_file: secrets/slack-webhook }',
    );

    it('passes a config whose secret files do not exist, without reading them', async () => {
      write(SECRET_CONFIG, RULE);

      const run = startCli(['check', '--offline', '--config', 'config.yaml'], { cwd: dir });
      const code = await run.done;

      expect(run.stderr()).toBe('');
      expect(code).toBe(0);
      expect(run.stdout()).toContain('1 notifiers (offline: secret files not read)');
    });

    it('the same config fails online, saying which file cannot be read', async () => {
      write(SECRET_CONFIG, RULE);

      const run = startCli(['check', '--config', 'config.yaml'], { cwd: dir });
      const code = await run.done;

      expect(code).toBe(1);
      expect(run.stderr()).toMatch(
        /config\.yaml:6:\d+ notifiers\.ops-slack\.webhook_url_file: cannot read secrets\/slack-webhook \(relative to the config file's folder\): no such file/,
      );
    });

    it('still requires a *_file key to name a file, and still checks everything else', async () => {
      write(CONFIG.replace('{ kind: console }', '{ kind: slack, webhook_url_file: 7, usernme: x }'), RULE);

      const run = startCli(['check', '--offline', '--config', 'config.yaml'], { cwd: dir });
      const code = await run.done;

      expect(code).toBe(1);
      expect(run.stderr()).toMatch(
        /config\.yaml:6:\d+ notifiers\.ops-slack\.webhook_url_file: expected the path of a file holding the value of webhook_url/,
      );
      expect(run.stderr()).toMatch(
        /notifiers\.ops-slack\.usernme: unknown key "usernme"; did you mean "username"\?/,
      );
    });
  });
});
