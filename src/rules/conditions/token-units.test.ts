// token_debit / token_credit amounts in whole tokens or by symbol, resolved through the token's facts (its decimals
// and symbol read from the query service), and alert amounts in the token's own units.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { createEngine } from '../engine/engine.js';
import { RuleFile } from '../load/schema.js';
import { ruleWarnings } from '../load/rule-warnings.js';
import { WATCHED, tx } from '../../../test/fixtures/rules/records.js';
import { ruleSetFrom } from '../../../test/fixtures/rules/rule-set.js';
import type { UnitFacts } from '../../tokens/token-amount-text.js';
import { parseTokenAmount, unitsOf } from './shared/token-amount.js';

const TOKEN = '0.0.456858';
const USDC: UnitFacts = { decimals: 6, symbol: 'USDC' };

function moved(amount: bigint): Transaction {
  return tx({
    token_transfers: [
      { token_id: TOKEN, account: WATCHED.id, amount: String(amount) },
      { token_id: TOKEN, account: '0.0.6666', amount: String(-amount) },
    ],
  });
}

function rules(when: string, summary = '{{why}}'): string {
  return `rules:\n  - id: r\n    when: ${when}\n    summary: "${summary}"\n`;
}

function evaluate(when: string, record: Transaction, facts?: UnitFacts, summary?: string) {
  const engine = createEngine(ruleSetFrom(rules(when, summary)));
  const tokenFacts = facts ? (id: string) => (id === TOKEN ? facts : undefined) : undefined;
  return engine.evaluate({
    source: 'transactions',
    record,
    account: WATCHED,
    ...(tokenFacts ? { tokenFacts } : {}),
  });
}

describe('token amounts by symbol or in tokens', () => {
  const debit10k = `{ token_debit: { token_id: ${TOKEN}, min: "10000 USDC" } }`;

  it('matches at the threshold exactly, through the decimals read from the service', () => {
    expect(evaluate(debit10k, moved(-10_000_000_000n), USDC).matched).toEqual(['r']);
    expect(evaluate(debit10k, moved(-9_999_999_999n), USDC).matched).toEqual([]);
  });

  it('says why in the token units', () => {
    const [alert] = evaluate(debit10k, moved(-12_345_678_901n), USDC).alerts;

    expect(alert?.why).toBe(`token ${TOKEN} debit 12,345.678901 USDC ≥ 10,000 USDC`);
  });

  it('does not match while the token facts are not known', () => {
    expect(evaluate(debit10k, moved(-(10n ** 15n))).matched).toEqual([]);
    expect(evaluate(debit10k, moved(-(10n ** 15n)), { symbol: 'USDC' }).matched).toEqual([]);
  });

  it('never matches a token whose symbol is not the one the rule names', () => {
    expect(evaluate(debit10k, moved(-(10n ** 15n)), { decimals: 6, symbol: 'USDT' }).matched).toEqual([]);
  });

  it('reads "tokens" through any symbol, and rounds a finer fraction up', () => {
    const credit = `{ token_credit: { token_id: ${TOKEN}, min: "1.5 tokens" } }`;
    const points = { decimals: 0, symbol: 'PTS' };

    expect(evaluate(credit, moved(1_500_000n), USDC).matched).toEqual(['r']);
    expect(evaluate(credit, moved(1_499_999n), USDC).matched).toEqual([]);
    expect(evaluate(credit, moved(2n), points).matched).toEqual(['r']);
    expect(evaluate(credit, moved(1n), points).matched).toEqual([]);
  });

  it('lets decimals: in the rule win, deciding offline', () => {
    const written = `{ token_debit: { token_id: ${TOKEN}, min: "2.5 tokens", decimals: 2 } }`;

    expect(evaluate(written, moved(-250n)).matched).toEqual(['r']);
    expect(evaluate(written, moved(-249n), USDC).matched).toEqual([]);
  });

  it('keeps 18 decimals exact', () => {
    const parsed = parseTokenAmount('1.000000000000000001 WETH', undefined);

    expect(parsed.ok && parsed.amount.quantity && unitsOf(parsed.amount.quantity, 18)).toBe(
      1_000_000_000_000_000_001n,
    );
  });

  it.each([
    ['10000 U$DC!', '"10000 U$DC!": "U$DC!" is not a unit'],
    ['0 USDC', 'a token amount is above 0'],
    ['1.5 units', 'units are whole numbers'],
    ['5 HBAR', 'not HBAR; for HBAR use debit or credit'],
  ])('refuses %j', (input, message) => {
    const parsed = parseTokenAmount(input, undefined);

    expect(parsed.ok ? '' : parsed.message).toContain(message);
  });

  it('is warned about by check, at the min, saying what it depends on', () => {
    const text = rules(`{ token_debit: { token_id: ${TOKEN}, min: "10000 USDC" } }`);
    const file = RuleFile.parse(parse(text));

    expect(ruleWarnings('r.yaml', text, file.rules)).toEqual([
      expect.objectContaining({
        line: 3,
        col: 55,
        path: 'when.token_debit.min',
        message: expect.stringContaining(
          `"10000 USDC" is resolved through token ${TOKEN}'s decimals and symbol (USDC) read from the query service: the condition does not match until they are read`,
        ),
      }),
    ]);
  });

  it('lists the tokens the rules decide by, for the pipeline to read first', () => {
    const set = ruleSetFrom(
      rules(
        `{ any: [{ token_debit: { token_id: ${TOKEN}, min: "1 USDC" } }, { token_credit: { token_id: 0.0.7, min: "5 units" } }] }`,
      ),
    );

    expect([...(set.factsTokens ?? [])]).toEqual([TOKEN]);
  });
});

describe('alert amounts in the token units', () => {
  const anyDebit = `{ token_debit: { token_id: ${TOKEN} } }`;

  it('shows the amount with the symbol and keeps the raw units', () => {
    const summary = '{{token_amount_text}} ({{token_amount}} raw, {{token_symbol}})';
    const [alert] = evaluate(anyDebit, moved(-293_843_768n), { decimals: 5, symbol: 'USDC' }, summary).alerts;

    expect(alert?.summary).toBe('-2,938.43768 USDC (-293843768 raw, USDC)');
    expect(alert?.trigger?.tokens).toEqual([
      { tokenId: TOKEN, amount: '-293843768', decimals: 5, symbol: 'USDC', counterparty: '0.0.6666' },
    ]);
  });

  it('stays in raw units, saying so, when the facts are unknown', () => {
    const [alert] = evaluate(anyDebit, moved(-293_843_768n), undefined, '{{token_amount_text}}').alerts;

    expect(alert?.summary).toBe('-293,843,768 units (decimals unknown)');
  });

  it('names the token as tokens: in the config does, even while its decimals are unknown', () => {
    const summary = '{{token_name}}: {{#tokens}}{{text}}{{/tokens}}';
    const named = { decimals: 5, symbol: 'USDC', displayName: 'treasury-usdc' };
    const [alert] = evaluate(anyDebit, moved(-293_843_768n), named, summary).alerts;
    const [unknown] = evaluate(anyDebit, moved(-5n), { displayName: 'treasury-usdc' }, summary).alerts;

    expect(alert?.summary).toBe(`treasury-usdc: -2,938.43768 USDC of treasury-usdc (${TOKEN})`);
    expect(unknown?.summary).toBe(`treasury-usdc: -5 units (decimals unknown) of treasury-usdc (${TOKEN})`);
  });

  it('falls back to the symbol, then the id, for token_name', () => {
    const [withSymbol] = evaluate(anyDebit, moved(-5n), USDC, '{{token_name}}').alerts;
    const [bare] = evaluate(anyDebit, moved(-5n), undefined, '{{token_name}}').alerts;

    expect(withSymbol?.summary).toBe('USDC');
    expect(bare?.summary).toBe(TOKEN);
  });
});
