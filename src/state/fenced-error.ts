/** A write refused because a newer leader holds the lease: this replica must stop acting as leader at once. */
export class FencedError extends Error {
  readonly mine: bigint | undefined;
  readonly current: bigint | undefined;

  constructor(mine: bigint | undefined, current: bigint | undefined) {
    super(
      `write refused: this replica's fencing token ${mine ?? 'none'} is not the lease's current token ` +
        `${current ?? 'none'} (a newer leader took over); stop tailing and delivering, and restart as a standby`,
    );
    this.name = 'FencedError';
    this.mine = mine;
    this.current = current;
  }
}
