/** One entry of the watch list, after config validation and normalisation. */
export interface WatchedAccount {
  /** Canonical `shard.realm.num`, e.g. `0.0.1234`; for a rewards-only alias entry, the alias itself. */
  readonly id: string;
  /** Display name for messages; defaults to the id. */
  readonly name: string;
  /** Free-form labels (team, purpose, …) used by rule selectors, routing and messages. */
  readonly labels: Readonly<Record<string, string>>;
  /** Higher polls first when the request budget is short; default 0. */
  readonly priority: number;
  /** Rewards can be watched by alias or EVM address; the path segment used on the rewards endpoint. */
  readonly rewardsPath: string;
  /** What is tailed for it; default both. An alias-only entry has `['rewards']`. */
  readonly sources?: readonly ('transactions' | 'rewards')[];
  /**
   * The EVM address or alias the config named the account by, while its `0.0.N` comes from the query service
   * (GET /api/v1/accounts/{lookup}); `id` is then this text until resolved. Absent for ids known locally.
   */
  readonly lookup?: string;
}
