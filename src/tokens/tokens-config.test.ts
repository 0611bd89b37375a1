// The `tokens:` section: entity ids normalised, and every mistake reported at its file:line:col with the fix.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../config/config-error.js';
import { loadConfigFile } from '../config-file/load.js';
import { TokensConfig, watchedTokens } from './tokens-config.js';

function load(tokens: string) {
  const text = `ledger:\n  base_url: https://mainnet.mirrornode.hedera.com\ntokens:\n${tokens}`;
  return loadConfigFile('config.yaml', { env: {}, readFile: () => text });
}

describe('tokens config', () => {
  it('normalises ids and keeps names and labels', () => {
    const result = load(
      '  - { id: 0.0.456858, name: USDC, labels: { team: payments } }\n  - id: 1234\n  - id: "0.99"\n',
    );

    expect(result.ok && watchedTokens(result.value.tokens)).toEqual([
      { id: '0.0.456858', name: 'USDC', labels: { team: 'payments' } },
      { id: '0.0.1234', name: undefined, labels: {} },
      { id: '0.0.99', name: undefined, labels: {} },
    ]);
  });

  it('defaults to no tokens', () => {
    expect(TokensConfig.parse(undefined)).toEqual([]);
  });

  it.each([
    [
      '  - id: USDC\n',
      'config.yaml:4:9 tokens.0.id: expected a token id like 0.0.456858 (shard.realm.num), got "USDC"',
    ],
    [
      '  - id: 0.0.274877906944\n',
      'config.yaml:4:9 tokens.0.id: token id "0.0.274877906944" is out of range (shard ≤ 1023, realm ≤ 65535, num < 2^38)',
    ],
    [
      '  - id: 0.5\n',
      'config.yaml:4:9 tokens.0.id: expected a token id like 0.0.456858 (shard.realm.num); YAML read this id as the number 0.5: quote it, like id: "0.0.456858"',
    ],
    [
      '  - id: 0.0.5\n  - id: 5\n',
      'config.yaml:5:9 tokens.1.id: token 0.0.5 is listed twice (also tokens[0]): merge the two entries',
    ],
    [
      '  - { id: 0.0.5, symbol: USDC }\n',
      'config.yaml:4:18 tokens.0.symbol: unknown key "symbol"; allowed keys here: id, name, labels',
    ],
  ])('reports %j at its place with the fix', (tokens, message) => {
    const result = load(tokens);

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map(formatIssue)).toContain(message);
  });
});
