import { z } from 'zod';
import { duration } from '../duration.js';
import { secret } from '../secret.js';

/** `state.postgres:` — the PostgreSQL server holding the state when `backend: postgres`. */
export const PostgresStateConfig = z.strictObject({
  /** postgres://user:password@host:5432/db — a secret; `url_file` reads it from a file (a mounted Secret). */
  url: secret().optional(),
  ssl: z
    .strictObject({
      ca_file: z.string().min(1).optional(),
      cert_file: z.string().min(1).optional(),
      key_file: z.string().min(1).optional(),
      reject_unauthorized: z.boolean().default(true),
    })
    .optional(),
  connect_timeout: duration({ min: '100ms', max: '5m' }).prefault('10s'),
  statement_timeout: duration({ min: '100ms', max: '10m' }).prefault('30s'),
});

/** `state:` — where cursors, alert state and the outbox are kept. */
export const StateConfig = z
  .strictObject({
    /** sqlite: one file in `dir` (one replica); postgres: shared state for several replicas (docs/deployment.md). */
    backend: z.enum(['sqlite', 'postgres']).default('sqlite'),
    dir: z.string().min(1).default('/var/lib/ledger-sentinel'),
    postgres: PostgresStateConfig.optional(),
    /** `state.sqlite:` — the embedded SQLite file (backend sqlite). */
    sqlite: z
      .strictObject({
        /**
         * How the pipeline's page commits reach the disk (docs/reliability.md, "Commit durability"). normal:
         * they survive a process crash; an OS crash or power loss may roll the state back a few seconds, and
         * those pages are read from the ledger again (at worst an alert is delivered twice). full: every commit
         * is on disk before the next page (about 5 ms more per page on a disk with slow fsync). Writes made by
         * the API and the CLI (silences, acks) are always full.
         */
        synchronous: z.enum(['normal', 'full']).default('normal'),
      })
      .prefault({}),
  })
  .superRefine((state, ctx) => {
    if (state.backend === 'postgres' && state.postgres?.url === undefined)
      ctx.addIssue({
        code: 'custom',
        path: state.postgres ? ['postgres'] : [],
        message:
          'backend postgres needs the server: set state.postgres.url_file to a file holding ' +
          'postgres://user:password@host:5432/db (or state.postgres.url)',
      });
  });
export type StateConfig = z.output<typeof StateConfig>;
