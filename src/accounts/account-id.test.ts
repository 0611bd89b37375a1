// `accounts[].id` in every form users write, through the real config loader: what each becomes, and the exact
// file:line:col message of each form that is refused.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../config/config-error.js';
import { loadConfigFile } from '../config-file/load.js';
import { watchedAccounts } from './accounts-config.js';

const ALIAS = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';

function load(id: string) {
  const text = `ledger:\n  base_url: https://testnet.mirrornode.hedera.com\naccounts:\n  - id: ${id}\n`;
  return loadConfigFile('c.yaml', { env: {}, readFile: () => text });
}

describe('accounts[].id', () => {
  it.each([
    ['0.0.1234', '0.0.1234', undefined],
    ['1234', '0.0.1234', undefined],
    ['"1234"', '0.0.1234', undefined],
    ['"0.1234"', '0.0.1234', undefined],
    ['0x00000000000000000000000000000000000004d2', '0.0.1234', undefined],
    ['00000000000000000000000000000000000004D2', '0.0.1234', undefined],
    ['"0x71C7656EC7AB88B098DEFB751B7401B5F6D8976F"', '0x71c7656ec7ab88b098defb751b7401b5f6d8976f', 'evm'],
    ["'0x00000000000000000000000000000000000004d2'", '0.0.1234', undefined],
    ['71c7656ec7ab88b098defb751b7401b5f6d8976f', '0x71c7656ec7ab88b098defb751b7401b5f6d8976f', 'evm'],
    [ALIAS, ALIAS, 'alias'],
  ])('accepts %s as %s', (written, id, lookup) => {
    const result = load(written);

    expect(result.ok).toBe(true);
    const [account] = result.ok ? watchedAccounts(result.value.accounts) : [];
    expect(account?.id).toBe(id);
    expect(account?.lookup).toBe(lookup ? id : undefined);
    expect(account?.sources).toEqual(['transactions', 'rewards']);
    expect(account?.name).toBe(id);
  });

  it.each([
    [
      'treasury',
      'c.yaml:4:9 accounts.0.id: expected an account id like 0.0.1234 or 1234, an EVM address (0x and 40 hex digits) or an upper-case base32 alias, got "treasury"',
    ],
    [
      '0.0.999999999999999',
      'c.yaml:4:9 accounts.0.id: expected an account id like 0.0.1234 or 1234, an EVM address (0x and 40 hex digits) or an upper-case base32 alias, got "0.0.999999999999999"',
    ],
    [
      '0.70000.1',
      'c.yaml:4:9 accounts.0.id: account id "0.70000.1" is out of range (shard ≤ 1023, realm ≤ 65535, num < 2^38)',
    ],
    [
      '"0x0000000000000000000000000000004000000000"',
      'c.yaml:4:9 accounts.0.id: long-zero EVM address "0x0000000000000000000000000000004000000000" encodes a num beyond 2^38 - 1: no such account',
    ],
    [
      '"0x71c7656ec7ab88b098defb751b7401b5f6d8976"',
      'c.yaml:4:9 accounts.0.id: expected an account id like 0.0.1234 or 1234, an EVM address (0x and 40 hex digits) or an upper-case base32 alias, got "0x71c7656ec7ab88b098defb751b7401b5f6d8976"',
    ],
    [
      '0x71c7656ec7ab88b098defb751b7401b5f6d8976f',
      'c.yaml:4:9 accounts.0.id: YAML read this id as a number (an unquoted 0x… or 0.N is one): quote it, like id: "0x71c7…"',
    ],
    [
      '0.1234',
      'c.yaml:4:9 accounts.0.id: YAML read this id as a number (an unquoted 0x… or 0.N is one): quote it, like id: "0x71c7…"',
    ],
    [ALIAS.toLowerCase(), `c.yaml:4:9 accounts.0.id: aliases are upper-case base32: write "${ALIAS}"`],
    [
      'ABC',
      'c.yaml:4:9 accounts.0.id: "ABC" is not a valid base32 alias (its length or last character is off)',
    ],
    [
      '-5',
      'c.yaml:4:9 accounts.0.id: expected an account id like 0.0.1234 or 1234, an EVM address (0x and 40 hex digits) or an upper-case base32 alias, got -5',
    ],
  ])('refuses %s', (written, message) => {
    const result = load(written);

    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([message]);
  });

  it('keeps rewards_alias beside an id to resolve: rewards follow the alias as written', () => {
    const text = `ledger:\n  base_url: https://x.example\naccounts:\n  - id: ${ALIAS}\n    rewards_alias: ${ALIAS}\n`;
    const result = loadConfigFile('c.yaml', { env: {}, readFile: () => text });

    const [account] = result.ok ? watchedAccounts(result.value.accounts) : [];
    expect(account).toMatchObject({ id: ALIAS, lookup: ALIAS, rewardsPath: ALIAS });
  });
});
