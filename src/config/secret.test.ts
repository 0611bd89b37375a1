import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectSecrets, isSecret, secret } from './secret.js';

const Schema = z.strictObject({
  api_key: secret().optional(),
  name: z.string(),
  notifiers: z.record(
    z.string(),
    z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('slack'), webhook_url: secret() }),
      z.strictObject({ kind: z.literal('email'), password: secret(), user: z.string() }),
    ]),
  ),
  headers: z.array(z.strictObject({ name: z.string(), value: secret() })).default([]),
});

describe('collectSecrets', () => {
  it('finds every secret value, through optionals, records, unions and lists', () => {
    const value = Schema.parse({
      api_key: 'key-1',
      name: 'not-secret',
      notifiers: {
        ops: { kind: 'slack', webhook_url: 'https://hooks.slack.test/T1' },
        mail: { kind: 'email', password: 'pw-2', user: 'ops' },
      },
      headers: [{ name: 'Authorization', value: 'Bearer t3' }],
    });

    const secrets = collectSecrets(Schema, value);

    expect(secrets.sort()).toEqual(['Bearer t3', 'https://hooks.slack.test/T1', 'key-1', 'pw-2']);
  });

  it('finds nothing when no secret is set', () => {
    const value = Schema.parse({ name: 'x', notifiers: {} });

    const secrets = collectSecrets(Schema, value);

    expect(secrets).toEqual([]);
  });
});

describe('isSecret', () => {
  it.each([
    ['secret()', secret(), true],
    ['secret().optional()', secret().optional(), true],
    ['secret().default()', secret().default('x'), true],
    ['z.string()', z.string(), false],
  ])('%s → %s', (_, schema, expected) => {
    const result = isSecret(schema);

    expect(result).toBe(expected);
  });

  it('rejects an empty secret', () => {
    const result = secret().safeParse('');

    expect(result.error?.issues[0]?.message).toBe('must not be empty');
  });
});
