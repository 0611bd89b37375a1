// Scenario 22: the disk under PostgreSQL fills up under two HA replicas (issue #26). The state's database lives in
// a tablespace on a small tmpfs of its own (mounting it needs root: elsewhere the scenario fails, saying so); with
// markers every second, the tmpfs is filled to the last byte for 20 s (--quick: 10 s), then freed. Must hold: the
// fault bit (replication retried), each replica said so at most once per kind of failure, every marker delivered
// once after space was back, nothing pending at the end.
import { until } from '../bench/lib/daemon-process.js';
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { deliveriesByStatus, linesWith } from '../test/helpers/ha-replicas.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { smallDiskUnavailable, startSmallDisk } from '../test/integration/pg-cluster.js';
import { lostAlerts } from './lib/markers.js';
import { startHaRig } from './lib/ha-rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { sleep } from './lib/seeded.js';

const SUITE = '22 PostgreSQL disk full';
const FAILING = '"msg":"state replication failing';

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const why = smallDiskUnavailable();
  if (why) return [checked(SUITE, `not possible here: ${why}`, 0, '==', 1)];
  const server = await startPostgres();
  const disk = await startSmallDisk(server, 'chaos_disk_full', 32);
  const markers = ctx.quick ? 20 : 40;
  const fullMs = ctx.quick ? 10_000 : 20_000;
  const { rig, set, marking } = await startHaRig(ctx, {
    seed: 'chaos-pg-disk-full',
    url: disk.url,
    markers,
    holders: ['replica-a', 'replica-b'],
  });
  try {
    await set.waitForLeader(90_000);
    await sleep(5_000);
    ctx.log(`${SUITE}: the database's file system full for ${fullMs / 1000} s`);
    disk.fill();
    await sleep(fullMs);
    const bit = set.all().filter((r) => r.proc.stdout().includes(FAILING)).length;
    disk.free();
    await marking;
    await set.waitForLeader(90_000);
    const result = await rig.settle(180_000);
    await until(async () => ((await deliveriesByStatus(disk.url)).pending ?? 0) === 0, 60_000, 500);
    const pending = (await deliveriesByStatus(disk.url)).pending ?? 0;
    const said = set.all().map((r) => linesWith(r.proc.stdout(), FAILING));
    return [
      checked(SUITE, 'replicas that met the full disk (the fault bit)', bit, '>=', 1),
      checked(
        SUITE,
        '"state replication failing" lines in one process, most',
        Math.max(0, ...said),
        '<=',
        3,
        {
          note: 'once per kind of failure (disk, then unreachable if the leader changed)',
        },
      ),
      figure(SUITE, 'replicas restarted by the supervisor', set.restarts()),
      checked(SUITE, 'deliveries pending at the end', pending, '==', 0),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '<=', set.restarts(), {
        note: 'target 0; at most one per restart with a send on the wire',
      }),
    ];
  } finally {
    await marking;
    await set.close();
    await rig.close();
    server.destroy();
    disk.destroy();
  }
}

export const pgDiskFull: Scenario = { n: 22, name: "PostgreSQL's disk full", run };
