// The resolution policy: retries wait max(1 s, poll_interval), doubling up to max_backoff; each pending account
// keeps the time it was first left unresolved across rounds, and forgets it once resolved.
import { describe, expect, it } from 'vitest';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { pendingSince, resolutionRetryDelay } from './resolution-policy.js';

describe('resolutionRetryDelay', () => {
  it.each([
    [{ poll_interval: 2000, max_backoff: 60_000 }, [2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]],
    [{ poll_interval: 200, max_backoff: 3000 }, [1000, 2000, 3000, 3000]],
    [{ poll_interval: 5000, max_backoff: 1000 }, [5000, 5000]],
  ])('%o waits %o', (tail, delays) => {
    expect(delays.map((_, retries) => resolutionRetryDelay(tail, retries))).toEqual(delays);
    expect(Number.isFinite(resolutionRetryDelay(tail, 10_000))).toBe(true);
  });
});

describe('pendingSince', () => {
  const accounts = watchedAccounts(
    AccountsConfig.parse([
      { id: '0.0.5' },
      { id: '0x71c7656ec7ab88b098defb751b7401b5f6d8976f' },
      { id: 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA' },
    ]),
  );
  const [, evm, alias] = accounts;

  it('names the config entry and keeps the first time each lookup waited', () => {
    const since = new Map<string, number>();
    expect(pendingSince(accounts, [evm!, alias!], since, 100)).toEqual([
      { account: evm, entry: 'accounts[1].id', since: 100 },
      { account: alias, entry: 'accounts[2].id', since: 100 },
    ]);
    expect(pendingSince(accounts, [alias!], since, 200)).toEqual([
      { account: alias, entry: 'accounts[2].id', since: 100 },
    ]);
    expect([...since.keys()]).toEqual([alias!.lookup]);
  });
});
