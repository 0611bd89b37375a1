import { describe, expect, it } from 'vitest';
import { createContractVerification, type Verify } from './verification.js';
import { tx } from '../../test/fixtures/rules/records.js';

const created = tx({ name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.7007' });
const ADDRESS = '0x0000000000000000000000000000000000001b5f';

function recordingVerify(answer: () => ReturnType<Verify>) {
  const asked: string[] = [];
  const verify: Verify = (address) => {
    asked.push(address);
    return answer();
  };
  return { verify, asked };
}

describe('contract verification', () => {
  it.each([
    ['perfect', { status: 'perfect' }, 'perfect'],
    [
      'partial with a message',
      { status: 'partial', message: 'metadata differs' },
      'partial (metadata differs)',
    ],
    ['not verified', { status: 'not verified' }, 'not verified'],
  ])('annotates %s', async (_label, answer, expected) => {
    const { verify } = recordingVerify(async () => answer);

    const annotations = await createContractVerification({ verify }).annotate(created);

    expect(annotations).toEqual({ contract_address: ADDRESS, contract_verification: expected });
  });

  it('says so when no verification service is configured', async () => {
    const annotations = await createContractVerification({ verify: undefined }).annotate(created);

    expect(annotations.contract_verification).toBe('not checked (no verification service is configured)');
  });

  it('says so when verification fails, and tries again next time', async () => {
    const { verify, asked } = recordingVerify(async () => {
      throw new Error('connect ECONNREFUSED');
    });
    const verification = createContractVerification({ verify });

    const first = await verification.annotate(created);
    await verification.annotate(created);

    expect([first.contract_verification, asked.length]).toEqual([
      'unknown (verification failed: connect ECONNREFUSED)',
      2,
    ]);
  });

  it('asks once per address', async () => {
    const { verify, asked } = recordingVerify(async () => ({ status: 'perfect' }));
    const verification = createContractVerification({ verify });

    await verification.annotate(created);
    await verification.annotate(created);

    expect(asked).toEqual([ADDRESS]);
  });

  it.each([
    ['a transfer', tx()],
    [
      'a failed creation',
      tx({ name: 'CONTRACTCREATEINSTANCE', entity_id: '0.0.7007', result: 'INSUFFICIENT_GAS' }),
    ],
  ])('leaves %s alone', async (_label, record) => {
    const { verify, asked } = recordingVerify(async () => ({ status: 'perfect' }));

    const annotations = await createContractVerification({ verify }).annotate(record);

    expect([annotations, asked]).toEqual([{}, []]);
  });
});
