import { describe, expect, it } from 'vitest';
import { AccountsConfig, watchedAccounts } from './accounts-config.js';

describe('accounts config', () => {
  it.each([
    [
      { id: '0.0.1234' },
      { id: '0.0.1234', name: '0.0.1234', rewardsPath: '0.0.1234', sources: ['transactions', 'rewards'] },
    ],
    [
      { id: 1234, name: 'hot' },
      { id: '0.0.1234', name: 'hot', rewardsPath: '0.0.1234' },
    ],
    [{ id: '0.1234' }, { id: '0.0.1234' }],
    [{ rewards_alias: 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA' }, { sources: ['rewards'] }],
    [
      { rewards_alias: '0x00000000000000000000000000000000000004d2' },
      { id: '0.0.1234', rewardsPath: '0x00000000000000000000000000000000000004d2' },
    ],
    [
      { id: '0.0.7', sources: ['rewards'], priority: 5, labels: { team: 'ops' } },
      { sources: ['rewards'], priority: 5, labels: { team: 'ops' } },
    ],
  ])('normalises %j', (entry, expected) => {
    const [account] = watchedAccounts(AccountsConfig.parse([entry]));

    expect(account).toMatchObject(expected);
  });

  it.each([
    [
      { id: 'treasury' },
      'expected an account id like 0.0.1234 or 1234, an EVM address (0x and 40 hex digits) or an upper-case base32 alias, got "treasury"',
    ],
    [{ name: 'x' }, 'each account needs an id (0.0.1234, an EVM address or an alias) or a rewards_alias'],
    [{ id: '0.0.1', prio: 1 }, 'Unrecognized key: "prio"'],
    [{ rewards_alias: 'abc' }, 'expected an upper-case base32 alias or a 40-hex EVM address'],
  ])('rejects %j with a message that says how to fix it', (entry, message) => {
    const result = AccountsConfig.safeParse([entry]);

    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });
});
