/**
 * PostgreSQL no longer holds transactions it acknowledged to this leader: its count of batches under our fencing
 * token (sentinel_commits) is below the number this replica saw committed. The database failed over to a standby
 * that had not received them (asynchronous replication), or was restored from a backup. Writing on would build on
 * a state with a hole in it (an alert's deliveries without the alert, a cursor past an alert never stored), which
 * the next leader would load: so the replica stops writing, and the next leader starts from what PostgreSQL holds.
 */
export class CommitsLostError extends Error {
  readonly token: bigint;
  readonly held: number;
  readonly committed: number;

  constructor(token: bigint, held: number, committed: number) {
    super(
      `PostgreSQL lost ${committed - held} of the ${committed} transactions this leader committed under fencing ` +
        `token ${token} (sentinel_commits holds ${held}): the database failed over to a standby that had not ` +
        'received them (asynchronous replication) or was restored from a backup. This replica stops writing and ' +
        'exits; the next leader loads what PostgreSQL holds and reads the ledger again from there (an alert sent ' +
        'meanwhile may go out once more, with the same id). Synchronous replication for this database avoids it',
    );
    this.name = 'CommitsLostError';
    this.token = token;
    this.held = held;
    this.committed = committed;
  }
}
