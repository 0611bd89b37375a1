// Scenario 21: PostgreSQL itself fails over under two HA replicas, to a standby that fell behind (issue #26). A
// primary with an asynchronous streaming standby (pg_basebackup -R), the replicas' URL naming one endpoint that is
// pointed at the new primary, markers throughout. Each round: the standby's WAL link is cut (what it has not
// received is lost at promotion), markers go on for a few seconds, the primary is crashed (pg_ctl stop -m
// immediate), the standby promoted and the endpoint moved; then a fresh standby of the new primary is made for the
// next round. Must hold: every marker delivered (lost 0), duplicates only among the markers of the lost windows
// (an alert sent there has its "sent" lost too, and goes out again with the same id), no load of the state failing.
import { until } from '../bench/lib/daemon-process.js';
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { deliveriesByStatus, linesWith } from '../test/helpers/ha-replicas.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from '../test/helpers/tcp-proxy.js';
import { startEndpoint, startStandby, type Standby } from '../test/integration/pg-cluster.js';
import { lostAlerts } from './lib/markers.js';
import { startHaRig } from './lib/ha-rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { sleep } from './lib/seeded.js';

const SUITE = '21 PostgreSQL failover behind';

// One timeline of rounds, then the figures.
async function run(ctx: ChaosContext): Promise<Figure[]> {
  const first = await startPostgres();
  first.createDatabase('chaos_failover');
  const links: TcpProxy[] = [await startTcpProxy(first.port)];
  let standby: Standby = await startStandby(first, links[0]!.port);
  const endpoint = await startEndpoint(first.port);
  const url = `postgres://sentinel@127.0.0.1:${endpoint.port}/chaos_failover`;
  const rounds = ctx.quick ? 1 : 3;
  const markers = ctx.quick ? 20 : 50;
  const { rig, set, marked, marking } = await startHaRig(ctx, {
    seed: 'chaos-pg-failover',
    url,
    markers,
    holders: ['replica-a', 'replica-b'],
  });
  let primary: { crash(): void; destroy(): void } = first;
  /** Markers injected while a standby was cut off: their alerts may be sent, then lost with the commits. */
  let inLostWindows = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      await set.waitForLeader(90_000);
      await sleep(3_000);
      await until(() => standby.caughtUp(url), 30_000, 100);
      links.at(-1)!.cut();
      ctx.log(
        `${SUITE}: round ${round + 1}: standby cut off, then the primary crashed and the standby promoted`,
      );
      const cutAt = marked();
      await sleep(3_000);
      inLostWindows += marked() - cutAt + 1; // + the one whose send may have been on the wire at the cut
      primary.crash();
      standby.promote();
      endpoint.pointTo(standby.port);
      primary.destroy();
      const promoted = standby;
      primary = { crash: () => promoted.destroy(), destroy: () => promoted.destroy() };
      links.push(await startTcpProxy(promoted.port));
      standby = await startStandby(promoted, links.at(-1)!.port);
    }
    await marking;
    await set.waitForLeader(90_000);
    const result = await rig.settle(180_000);
    const pending = (await deliveriesByStatus(url)).pending ?? 0;
    const out = set
      .all()
      .map((r) => r.proc.stdout())
      .join('\n');
    return [
      figure(SUITE, 'failovers to a standby cut off for 3 s', rounds),
      figure(
        SUITE,
        'leaders stopped on lost commits',
        set.all().filter((r) => r.proc.stdout().includes('PostgreSQL lost ')).length,
      ),
      checked(SUITE, 'state loads that failed', linesWith(out, 'FOREIGN KEY constraint failed'), '==', 0),
      checked(SUITE, 'deliveries pending at the end', pending, '==', 0),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '<=', inLostWindows, {
        note: `markers of the lost windows: ${inLostWindows}; each sent in one goes out again, with the same id`,
      }),
    ];
  } finally {
    await marking;
    await set.close();
    await rig.close();
    await endpoint.close();
    for (const link of links) await link.close();
    standby.destroy();
    primary.destroy();
  }
}

export const pgFailoverBehind: Scenario = { n: 21, name: 'PostgreSQL fails over to a standby behind', run };
