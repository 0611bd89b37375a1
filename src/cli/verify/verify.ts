// `ledger-sentinel verify --address 0x… --chain-id <id>`: asks the verification service (Sourcify-compatible,
// POST /session/verify/etherscan) whether a contract is verified, and prints what it says.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigFile } from '../../config-file/load.js';
import { VerifyError, InvalidParameterError } from '../../ledger/errors.js';
import { createVerifyClient } from '../../ledger/verify-client.js';
import { printIssues } from '../common/print-issues.js';
import type { CliContext, Command } from '../command.js';

const USAGE = `Usage: ledger-sentinel verify --address <0x…> --chain-id <id> [options]

Asks the contract verification service whether a contract is verified (imported from Etherscan).
Exit 0 when it is (perfect or partial match), 1 when it is not or the service failed, 2 on bad usage.

Options:
  --address <0x…>          the contract's 20-byte EVM address
  --chain-id <id>          decimal chain id, e.g. 295 (Hedera mainnet); default verification.chain_id of --config
  --verify-url <url>       the service, e.g. https://sourcify.dev/server
  --config <file>          take the service (and chain id, API key) from this config's verification section
  --api-key-file <path>    file holding the Etherscan API key; default: the ETHERSCAN_API_KEY environment variable
  --json                   print the service's answer as JSON
`;

interface Target {
  readonly baseUrl: string;
  readonly chainId: string;
  readonly apiKey: string | undefined;
}

type Values = Record<string, string | boolean | undefined>;

function target(values: Values, ctx: CliContext): Target | string {
  let baseUrl = values['verify-url'] as string | undefined;
  let chainId = values['chain-id'] as string | undefined;
  let apiKey = ctx.env.ETHERSCAN_API_KEY;
  if (values['api-key-file'])
    apiKey = readFileSync(resolve(ctx.cwd, values['api-key-file'] as string), 'utf8').trim();
  if (values.config) {
    const loaded = loadConfigFile(resolve(ctx.cwd, values.config as string), { env: ctx.env });
    if (!loaded.ok) {
      printIssues(ctx.stderr, loaded.issues);
      return 'the config file is invalid';
    }
    const section = loaded.value.verification;
    if (!section)
      return `${values.config as string} has no verification: section; add one or pass --verify-url`;
    baseUrl ??= section.base_url;
    chainId ??= section.chain_id;
    apiKey = values['api-key-file'] ? apiKey : (section.api_key ?? apiKey);
  }
  if (!baseUrl) return 'no verification service: pass --verify-url <url> or --config <file>';
  if (!chainId) return 'no chain id: pass --chain-id <id>, e.g. --chain-id 295';
  return { baseUrl, chainId, apiKey };
}

export const verify: Command = {
  name: 'verify',
  summary: 'check whether a contract is verified',
  usage: USAGE,
  async run(ctx) {
    let values: Values;
    try {
      values = parseArgs({
        args: [...ctx.argv],
        options: {
          address: { type: 'string' },
          'chain-id': { type: 'string' },
          'verify-url': { type: 'string' },
          config: { type: 'string' },
          'api-key-file': { type: 'string' },
          json: { type: 'boolean', default: false },
        },
        strict: true,
      }).values;
    } catch (err) {
      ctx.stderr.write(
        `ledger-sentinel verify: ${(err as Error).message}. Run ledger-sentinel verify --help.\n`,
      );
      return 2;
    }
    if (!values.address) {
      ctx.stderr.write(
        'ledger-sentinel verify: --address is required, e.g. --address 0x00000000000000000000000000000000000003e8\n',
      );
      return 2;
    }
    let where: Target | string;
    try {
      where = target(values, ctx);
    } catch (err) {
      ctx.stderr.write(
        `ledger-sentinel verify: cannot read the API key file: ${(err as NodeJS.ErrnoException).code ?? 'error'}\n`,
      );
      return 2;
    }
    if (typeof where === 'string') {
      ctx.stderr.write(`ledger-sentinel verify: ${where}\n`);
      return 2;
    }
    return ask(ctx, where, values.address as string, values.json === true);
  },
};

async function ask(ctx: CliContext, where: Target, address: string, json: boolean): Promise<number> {
  const client = createVerifyClient({ baseUrl: where.baseUrl });
  try {
    const result = await client.verify(
      { address, chainId: where.chainId, ...(where.apiKey ? { apiKey: where.apiKey } : {}) },
      ctx.signal,
    );
    if (json) ctx.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    const contract =
      result.contracts.find((c) => c.address.toLowerCase() === address.toLowerCase()) ?? result.contracts[0];
    const status = contract?.status ?? 'unknown';
    if (!json)
      ctx.stdout.write(
        `${address} on chain ${where.chainId}: ${status}${contract?.name ? ` (${contract.name})` : ''}\n`,
      );
    return status === 'perfect' || status === 'partial' ? 0 : 1;
  } catch (err) {
    if (err instanceof VerifyError && err.kind === 'not-verified') {
      ctx.stdout.write(`${address} on chain ${where.chainId}: not verified\n`);
      return 1;
    }
    if (err instanceof InvalidParameterError) {
      ctx.stderr.write(`ledger-sentinel verify: ${err.message}\n`);
      return 2;
    }
    ctx.stderr.write(`ledger-sentinel verify: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
