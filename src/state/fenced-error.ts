/**
 * A write was refused because a newer leader holds the lease (its fencing token in sentinel_lease is not ours):
 * this replica must stop acting as the leader. Nothing of the refused batch was applied.
 */
export class FencedError extends Error {
  readonly ours: bigint | undefined;
  readonly current: bigint | undefined;

  constructor(ours: bigint | undefined, current: bigint | undefined) {
    super(
      `state write refused: the lease in PostgreSQL (sentinel_lease) carries fencing token ${String(current)}, ` +
        `this replica holds ${ours === undefined ? 'none' : String(ours)}; another replica leads, so this one ` +
        'must stop writing and rejoin as a standby',
    );
    this.name = 'FencedError';
    this.ours = ours;
    this.current = current;
  }
}
