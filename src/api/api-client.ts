// The CLI's side of the API (cli/silence/silence.ts, alerts.ts, ack.ts): where the daemon is, its token, one bounded call.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const DEFAULT_API_URL = 'http://127.0.0.1:9464';
/** One API call may take this long before the CLI gives up (exit 3). */
const CALL_TIMEOUT_MS = 15_000;

export interface ApiTarget {
  readonly url: string;
  readonly token?: string;
}

/** The options every API subcommand lists in its usage. */
export const API_OPTIONS_USAGE = `  --url <url>          the daemon's HTTP address (default $LEDGER_SENTINEL_URL or ${DEFAULT_API_URL})
  --token-file <file>  the API token's file (default $LEDGER_SENTINEL_API_TOKEN_FILE; or the token itself
                       in $LEDGER_SENTINEL_API_TOKEN)`;

export const API_PARSE_OPTIONS = {
  url: { type: 'string' },
  'token-file': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** --url / --token-file, else the environment; a string is the error. */
export function apiTarget(
  values: { url?: string; 'token-file'?: string },
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): ApiTarget | string {
  const url = (values.url ?? env.LEDGER_SENTINEL_URL ?? DEFAULT_API_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(url))
    return `--url: expected http(s)://host:port, got ${JSON.stringify(url)}`;
  const file = values['token-file'] ?? env.LEDGER_SENTINEL_API_TOKEN_FILE;
  if (file?.trim() === '')
    return `${values['token-file'] === undefined ? 'LEDGER_SENTINEL_API_TOKEN_FILE' : '--token-file'} is empty: give the path of the file holding the API token`;
  if (file === undefined)
    return env.LEDGER_SENTINEL_API_TOKEN ? { url, token: env.LEDGER_SENTINEL_API_TOKEN } : { url };
  try {
    const token = readFileSync(resolve(cwd, file), 'utf8').replace(/(\r?\n)+$/, '');
    return token ? { url, token } : `the token file ${file} is empty`;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EISDIR')
      return `the token file ${file} is a directory: give the path of the file holding the API token`;
    return `cannot read the token file ${file}: ${(err as Error).message}`;
  }
}

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** One call; throws ApiUnreachable when the daemon cannot be reached (or does not answer in time). */
export async function callApi(
  target: ApiTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${target.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    throw new ApiUnreachable(
      `cannot reach the daemon at ${target.url}: ${(err as Error).message}; check --url and that it runs`,
    );
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error message
  }
  return { status: res.status, body: parsed };
}

export class ApiUnreachable extends Error {}

/** The error line of a refused call: the API's own message, with a hint for 401/403. */
export function refusal(answer: ApiAnswer): string {
  const message =
    typeof answer.body === 'object' && answer.body !== null && 'error' in answer.body
      ? String((answer.body as { error: unknown }).error)
      : String(answer.body).slice(0, 500);
  return `the daemon answered ${answer.status}: ${message}`;
}

/** Runs an API subcommand: an unreachable daemon is exit 3, any other failure is printed and exit 1. */
export async function withApi(
  name: string,
  stderr: NodeJS.WritableStream,
  fn: () => Promise<number>,
): Promise<number> {
  try {
    return await fn();
  } catch (err) {
    stderr.write(`ledger-sentinel ${name}: ${(err as Error).message}\n`);
    return err instanceof ApiUnreachable ? 3 : 1;
  }
}

/** Fixed-width columns, amtool style: a header row, then one row per item. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
