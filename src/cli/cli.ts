import { COMMANDS } from './registry.js';
import type { CliContext } from './command.js';
import { VERSION } from '../version.js';
import { didYouMean } from '../config/did-you-mean.js';
import { unknownOption } from './unknown-option.js';

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 4);
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `ledger-sentinel ${VERSION}: watches ledger accounts, evaluates YAML rules, sends alerts.`,
    '',
    'Usage: ledger-sentinel <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `ledger-sentinel <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

/** Dispatches argv to a subcommand and resolves to the exit code; never exits the process itself. */
export async function runCli(ctx: CliContext): Promise<number> {
  const [name, ...rest] = ctx.argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    ctx.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    // `--hepl` is a mistyped option of the program itself, `chek` a mistyped command.
    const guess = name.startsWith('-')
      ? didYouMean(name, ['--help', '--version'])
      : didYouMean(
          name,
          COMMANDS.map((c) => c.name),
        );
    const hint = guess ? ` Did you mean "${guess}"?` : '';
    ctx.stderr.write(
      `ledger-sentinel: unknown ${name.startsWith('-') ? 'option' : 'command'} "${name}".${hint} Run ledger-sentinel --help for the list.\n`,
    );
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    ctx.stdout.write(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  const unknown = unknownOption(rest, command.usage);
  if (unknown) {
    ctx.stderr.write(`ledger-sentinel ${name}: ${unknown} Run ledger-sentinel ${name} --help.\n`);
    return 2;
  }
  return command.run({ ...ctx, argv: rest });
}
