// What a transaction of each shape moves: HBAR legs, token legs, NFT legs, and the entity it creates or touches.
// Failed transactions move nothing here; the caller adds the fee legs to every record.
import type { Rng } from './rng.js';
import { newAccount, TREASURY, type Population, type SimAccount } from './traffic-population.js';
import type { Leg, NftLeg, TokenLeg } from './traffic-record.js';
import type { TxShape } from './traffic-mix.js';

export interface ShapeBody {
  legs: Leg[];
  tokenLegs: TokenLeg[];
  nftLegs: NftLeg[];
  entityId: number | null;
  /** Accounts created by this transaction. */
  created: SimAccount[];
}

export interface ShapeContext {
  readonly rng: Rng;
  readonly population: Population;
  readonly payer: SimAccount;
  readonly success: boolean;
  readonly typeName: string;
}

/** Tinybars spread over 10^2..10^11, with a rare whale transfer of 10^13 or more. */
export function sampleAmount(rng: Rng): bigint {
  if (rng.chance(0.005)) return BigInt(rng.between(1, 90)) * 10n ** 13n;
  return BigInt(1 + rng.int(9)) * 10n ** BigInt(rng.between(2, 11));
}

export function otherAccount(rng: Rng, population: Population, not: number): SimAccount {
  for (;;) {
    const account = rng.pick(population.accounts);
    if (account.num !== not || population.accounts.length < 2) return account;
  }
}

function emptyBody(entityId: number | null = null): ShapeBody {
  return { legs: [], tokenLegs: [], nftLegs: [], entityId, created: [] };
}

function tokenPair(ctx: ShapeContext, body: ShapeBody, to: number): void {
  const token = ctx.rng.pick(ctx.population.tokens);
  const amount = BigInt(ctx.rng.between(1, 1_000_000_000));
  body.tokenLegs.push({ token, account: ctx.payer.num, amount: -amount }, { token, account: to, amount });
}

function nftMove(ctx: ShapeContext, body: ShapeBody, sender: number | null, receiver: number | null): void {
  const token = ctx.rng.pick(ctx.population.nftTokens);
  const next = ctx.population.serials.get(token) ?? 1;
  const serial = sender === null ? next : 1 + ctx.rng.int(Math.max(1, next - 1));
  if (sender === null) ctx.population.serials.set(token, next + 1);
  body.nftLegs.push({ token, serial, sender, receiver });
}

export function buildShape(shape: TxShape, ctx: ShapeContext): ShapeBody {
  const { rng, population, payer } = ctx;
  if (!ctx.success) return emptyBody(entityFor(ctx));
  const body = emptyBody();
  const to = otherAccount(rng, population, payer.num).num;
  switch (shape) {
    case 'transfer': {
      const amount = sampleAmount(rng);
      body.legs.push({ account: payer.num, amount: -amount }, { account: to, amount });
      if (rng.chance(0.25)) tokenPair(ctx, body, to);
      if (rng.chance(0.1)) nftMove(ctx, body, payer.num, to);
      return body;
    }
    case 'token-transfer':
      if (rng.chance(0.7)) tokenPair(ctx, body, to);
      else nftMove(ctx, body, payer.num, to);
      return body;
    case 'token-mint':
      if (rng.chance(0.4)) {
        nftMove(ctx, body, null, TREASURY);
        body.entityId = body.nftLegs[0]?.token ?? null;
        return body;
      }
      return tokenSupply(ctx, body, TREASURY, 1n);
    case 'token-burn':
      return tokenSupply(ctx, body, TREASURY, -1n);
    case 'token-wipe':
      return tokenSupply(ctx, body, to, -1n);
    case 'create-account': {
      const account = newAccount(rng, population);
      population.accounts.push(account);
      const amount = sampleAmount(rng);
      body.legs.push({ account: payer.num, amount: -amount }, { account: account.num, amount });
      return { ...body, entityId: account.num, created: [account] };
    }
    default:
      return emptyBody(entityFor(ctx));
  }
}

function tokenSupply(ctx: ShapeContext, body: ShapeBody, account: number, sign: bigint): ShapeBody {
  const token = ctx.rng.pick(ctx.population.tokens);
  body.tokenLegs.push({ token, account, amount: sign * BigInt(ctx.rng.between(1, 10_000_000)) });
  body.entityId = token;
  return body;
}

/** The entity_id a fee-only transaction reports: its token, topic, a fresh file/schedule num, or none. */
function entityFor(ctx: ShapeContext): number | null {
  const { typeName: name, rng, population } = ctx;
  if (name.startsWith('TOKEN'))
    return rng.pick(name.includes('NFT') ? population.nftTokens : population.tokens);
  if (name === 'CONSENSUSCREATETOPIC' || name.endsWith('CREATE') || name === 'FILECREATE')
    return population.nextNum++;
  if (name.startsWith('CONSENSUS')) return rng.pick(population.topics);
  if (name.startsWith('CRYPTO') && name !== 'CRYPTOTRANSFER') return ctx.payer.num;
  if (name.startsWith('FILE')) return 150 + rng.int(10);
  return null;
}
