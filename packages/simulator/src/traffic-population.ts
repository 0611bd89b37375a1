// The entities of the living ledger: system accounts, nodes, an account population (some with base32 aliases and
// EVM addresses), tokens, NFT collections, topics and contracts. Ids are nums in shard 0 realm 0, so the encoded
// id equals the num. New entities (created accounts, contracts, files, topics, schedules) take the next free num.
import type { Rng } from './rng.js';

export const TREASURY = 2;
export const NODES: readonly number[] = [3, 4, 5, 6, 7, 8, 9];
export const FEE_COLLECTOR = 98;
export const STAKING_REWARD_ACCOUNT = 800;
const FIRST_NUM = 1001;

export interface SimAccount {
  readonly num: number;
  /** Upper-case base32 of the alias bytes (a protobuf ED25519 key), or null. */
  readonly alias: string | null;
  /** 40 lower-case hex digits without 0x, or null. */
  readonly evmAddress: string | null;
  /** Staked accounts receive staking-reward payouts from 0.0.800. */
  readonly staked: boolean;
}

export interface SimContract {
  readonly num: number;
  /** 40 lower-case hex digits without 0x: the long-zero form, or a CREATE2-style address. */
  readonly evmAddress: string;
  readonly createdAt: bigint | null;
}

export interface Population {
  readonly accounts: SimAccount[];
  readonly tokens: number[];
  readonly nftTokens: number[];
  readonly topics: number[];
  readonly contracts: SimContract[];
  /** Next serial per NFT token. */
  readonly serials: Map<number, number>;
  nextNum: number;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, upper case, no padding (the alias form the rewards path accepts). */
export function encodeBase32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

export function longZeroHex(num: number): string {
  return num.toString(16).padStart(40, '0');
}

export interface PopulationOptions {
  readonly accounts: number;
  readonly tokens: number;
  readonly nftTokens: number;
  readonly contracts: number;
}

export function createPopulation(rng: Rng, options: PopulationOptions): Population {
  const population: Population = {
    accounts: [],
    tokens: [],
    nftTokens: [],
    topics: [],
    contracts: [],
    serials: new Map(),
    nextNum: FIRST_NUM,
  };
  for (let i = 0; i < options.accounts; i++) population.accounts.push(newAccount(rng, population));
  for (let i = 0; i < options.tokens; i++) population.tokens.push(population.nextNum++);
  for (let i = 0; i < options.nftTokens; i++) {
    const token = population.nextNum++;
    population.nftTokens.push(token);
    population.serials.set(token, 1);
  }
  for (let i = 0; i < 3; i++) population.topics.push(population.nextNum++);
  for (let i = 0; i < options.contracts; i++) population.contracts.push(newContract(rng, population, null));
  return population;
}

export function newAccount(rng: Rng, population: Population): SimAccount {
  const alias = rng.chance(0.3)
    ? encodeBase32(Buffer.concat([Buffer.from([0x12, 0x20]), rng.bytes(32)]))
    : null;
  const evmAddress = rng.chance(0.3) ? rng.bytes(20).toString('hex') : null;
  return { num: population.nextNum++, alias, evmAddress, staked: rng.chance(0.4) };
}

/** Half the contracts get a CREATE2-style address, half their long-zero address. */
export function newContract(rng: Rng, population: Population, createdAt: bigint | null): SimContract {
  const num = population.nextNum++;
  const evmAddress = rng.chance(0.5) ? rng.bytes(20).toString('hex') : longZeroHex(num);
  return { num, evmAddress, createdAt };
}
