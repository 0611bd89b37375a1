import { captureCli } from '../../test/helpers/capture-cli.js';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

const capture = (argv: string[]) => captureCli(argv);

describe('cli', () => {
  it('prints usage for --help and exits 0', async () => {
    const c = capture(['--help']);

    const code = await runCli(c.ctx);

    expect(code).toBe(0);
    expect(c.out()).toContain('Usage: ledger-sentinel <command>');
  });

  it('rejects an unknown command with exit 2 and a pointer to --help', async () => {
    const c = capture(['frobnicate']);

    const code = await runCli(c.ctx);

    expect(code).toBe(2);
    expect(c.err()).toContain('unknown command "frobnicate"');
  });
});

describe('cli typos', () => {
  it.each([
    [
      ['chek'],
      'ledger-sentinel: unknown command "chek". Did you mean "check"? Run ledger-sentinel --help for the list.\n',
    ],
    [
      ['backtset', '--help'],
      'ledger-sentinel: unknown command "backtset". Did you mean "backtest"? Run ledger-sentinel --help for the list.\n',
    ],
    [
      ['check', '--confg', 'x.yaml'],
      'ledger-sentinel check: unknown option --confg. Did you mean --config? Run ledger-sentinel check --help.\n',
    ],
    [
      ['backtest', '--form=1700000000'],
      'ledger-sentinel backtest: unknown option --form. Did you mean --from? Run ledger-sentinel backtest --help.\n',
    ],
    [
      ['--hepl'],
      'ledger-sentinel: unknown option "--hepl". Did you mean "--help"? Run ledger-sentinel --help for the list.\n',
    ],
    [['run', '--zzzzzz'], 'ledger-sentinel run: unknown option --zzzzzz. Run ledger-sentinel run --help.\n'],
  ])('%j suggests the nearest name and exits 2', async (argv, message) => {
    const c = capture(argv);

    const code = await runCli(c.ctx);

    expect(code).toBe(2);
    expect(c.err()).toBe(message);
  });

  it('lets every option a usage lists through to the command', async () => {
    const c = capture(['check', '--config', '/nonexistent/config.yaml']);

    const code = await runCli(c.ctx);

    expect(code).toBe(1);
    expect(c.err()).not.toContain('unknown option');
  });
});
