// What every API subcommand (ack, alerts, silence) does first: parse its options beside --url/--token-file/--json,
// find the daemon, and on a mistake say so the same way (exit 2).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { API_PARSE_OPTIONS, apiTarget, type ApiTarget } from '../../api/api-client.js';
import type { CliContext } from '../command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

interface ApiConfig<O extends Options> {
  args: string[];
  options: typeof API_PARSE_OPTIONS & O;
  strict: true;
  allowPositionals: boolean;
}

export interface ApiCommandArgs<O extends Options> {
  readonly values: ReturnType<typeof parseArgs<ApiConfig<O>>>['values'];
  readonly positionals: string[];
  readonly target: ApiTarget;
}

/** The parsed arguments and the daemon's address, or the exit code of the usage error already written. */
export function parseApiCommand<O extends Options>(
  ctx: CliContext,
  name: string,
  options: O,
  allowPositionals: boolean,
  /** A check of the positionals before the daemon's address is looked at: the usage error, or undefined. */
  checkPositionals?: (positionals: readonly string[]) => string | undefined,
): ApiCommandArgs<O> | number {
  let parsed;
  try {
    const config: ApiConfig<O> = {
      args: [...ctx.argv],
      options: { ...API_PARSE_OPTIONS, ...options },
      strict: true,
      allowPositionals,
    };
    parsed = parseArgs(config);
  } catch (err) {
    return apiUsageError(ctx, name, (err as Error).message);
  }
  const wrong = checkPositionals?.(parsed.positionals);
  if (wrong !== undefined) return apiUsageError(ctx, name, wrong);
  const target = apiTarget(parsed.values as { url?: string; 'token-file'?: string }, ctx.env, ctx.cwd);
  if (typeof target === 'string') return apiUsageError(ctx, name, target);
  return { values: parsed.values, positionals: parsed.positionals, target };
}

export function apiUsageError(ctx: CliContext, name: string, message: string): number {
  ctx.stderr.write(`ledger-sentinel ${name}: ${message}. Run ledger-sentinel ${name} --help.\n`);
  return 2;
}
