// The state backend's metrics: replication to PostgreSQL and the leader lease (ha).
import { Counter, Gauge, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** The PostgreSQL state backend: replication of the working set (docs/architecture.md, "State backends"). */
export function replicationMetrics(r: Registry[]) {
  return {
    stateReplicated: new Counter({
      name: `${P}state_replicated_transactions_total`,
      help: 'State transactions replicated to PostgreSQL (backend postgres).',
      registers: r,
    }),
    stateReplicatedRows: new Counter({
      name: `${P}state_replicated_rows_total`,
      help: 'Rows upserted or deleted in PostgreSQL by the replication of the state (backend postgres).',
      registers: r,
    }),
    stateReplicationRetries: new Counter({
      name: `${P}state_replication_retries_total`,
      help: 'Replication attempts to PostgreSQL that failed for a connection reason and were retried.',
      registers: r,
    }),
    stateReplicationPending: new Gauge({
      name: `${P}state_replication_pending`,
      help: 'State transactions committed locally and not yet in PostgreSQL (backend postgres).',
      registers: r,
    }),
  };
}

/** Leadership (ha): this replica's lease, its fencing token and the changes of leader (docs/deployment.md). */
export function leadershipMetrics(r: Registry[]) {
  return {
    leader: new Gauge({
      name: `${P}leader`,
      help: '1 while this replica holds the lease and may tail and deliver (always 1 without ha), else 0.',
      registers: r,
    }),
    leaderChanges: new Counter({
      name: `${P}leader_changes_total`,
      help: 'Changes of the lease holder (a new fencing token) seen by this replica, as leader or standby.',
      registers: r,
    }),
    leaderLeaseAge: new Gauge({
      name: `${P}leader_lease_age_seconds`,
      help: 'Seconds since this leader last renewed its lease (by its own clock); 0 on a standby.',
      registers: r,
    }),
    leaderFencingToken: new Gauge({
      name: `${P}leader_fencing_token`,
      help: "The lease's current fencing token as last read by this replica (0 before any leader).",
      registers: r,
    }),
  };
}
