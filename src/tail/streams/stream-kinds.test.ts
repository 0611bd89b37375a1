// The stream kinds as the tailer sees them through the registry: the keys they give (stored in tail_cursor and
// tail_seen, so they must never change), which streams the global tail covers, where pushdown applies, and that
// every kind has a cursor kind and a settlement rule.
import { describe, expect, it } from 'vitest';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { STREAM_KINDS } from './stream-kinds.js';
import { accountStreams } from './watch-streams.js';

const accounts = watchedAccounts(
  AccountsConfig.parse([
    { id: '0.0.1234' },
    { id: '0.0.42', sources: ['transactions'] },
    { rewards_alias: 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA' },
    { id: '0.0.1234', name: 'again' },
  ]),
);

describe('stream kinds', () => {
  it('derive the stored keys, once each, in watch-list order', () => {
    const streams = accountStreams(accounts, (a) => (a.id === '0.0.1234' ? { result: 'fail' } : undefined));
    expect(streams.map((s) => [s.key, s.kind.name, s.coveredByGlobal, s.pushdown])).toEqual([
      ['tx:0.0.1234', 'transactions', true, { result: 'fail' }],
      ['rw:0.0.1234', 'rewards', true, undefined],
      ['tx:0.0.42', 'transactions', true, undefined],
      ['rwp:HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA', 'rewards', false, undefined],
    ]);
  });

  it('each name a cursor kind, a settlement rule and an endpoint', () => {
    for (const kind of Object.values(STREAM_KINDS)) {
      expect(kind.cursor.name).toBe('timestamp');
      expect(kind.settlement.lateVisibility).toBe('overlap');
      expect(kind.endpoint).toMatch(/^\/api\/v1\//);
    }
    expect(STREAM_KINDS.global.key).toBe('global');
  });

  it('read a record at its consensus timestamp', () => {
    const reward = { account_id: '0.0.1234', amount: 5n, timestamp: '1700000000.000000002' };
    expect(STREAM_KINDS.rewards.position(reward as never)).toBe(1_700_000_000_000_000_002n);
  });
});
