// Scenario 13: the state dir against a hostile world. Two daemons on one state dir (the second must refuse,
// naming the holder, while the first delivers every marker once); the state dir deleted while alerts are pending
// behind a Slack outage (the daemon must turn not ready, stop, and lose nothing silently: every marker is
// delivered after the restart, or named in its log); a corrupt database and a state.dir under a regular file
// (the messages must name the file and the fix).
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText, spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { lostAlerts, receivedMarkers } from './lib/markers.js';
import { startRig, type Rig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';

const SUITE = '13 state dir';

/** Phase 1: a second daemon on the same dir while the first runs and markers come in. */
async function twoOwners(rig: Rig, markers: readonly number[]): Promise<Figure[]> {
  const first = await rig.start();
  const second = spawnSentinel(['run', '--config', rig.dir.configPath]);
  const { code } = await second.exited;
  for (const n of markers) rig.mark(n);
  const delivered = await until(
    () => markers.every((n) => receivedMarkers(rig.slack.accepted()).has(`chaos-${n}`)),
    30_000,
    250,
  );
  const names = second.stderr().includes(`in use by pid ${first.pid} on host ${hostname()}`);
  const fix = second.stderr().includes('give this one its own state.dir');
  return [
    checked(SUITE, 'second daemon on the same state dir: exit code', code ?? -1, '==', 1),
    checked(SUITE, 'its message names the holder (pid, host) and the fix', names && fix ? 1 : 0, '==', 1),
    checked(SUITE, 'first daemon delivered the markers meanwhile', delivered ? 1 : 0, '==', 1),
  ];
}

interface Readiness {
  readonly status: number;
  readonly checks: Record<string, { ok: boolean; message: string }>;
}

/** Phase 2: alerts pending behind a Slack outage, then the state dir goes. */
async function deletedWhileRunning(
  rig: Rig,
  markers: readonly number[],
): Promise<{ figures: Figure[]; reported: number }> {
  const daemon = rig.daemons.at(-1);
  if (!daemon) throw new Error('no daemon running');
  const url = await daemon.httpUrl();
  rig.slack.setDown(true);
  for (const n of markers) rig.mark(n);
  await until(
    async () => metricSum(await metricsText(url), 'ledger_sentinel_outbox_depth') >= markers.length,
    30_000,
    200,
  );
  rmSync(join(rig.dir.dir, 'state'), { recursive: true });
  const res = await fetch(`${url}/readyz`);
  const readiness = { status: res.status, ...((await res.json()) as Omit<Readiness, 'status'>) };
  const { code } = await daemon.exited;
  rig.slack.setDown(false);
  const reported =
    /"msg":"alerts not delivered[^\n]*/.exec(daemon.stdout())?.[0].match(/"alert":/g)?.length ?? 0;
  await rig.start();
  const state = readiness.checks.state;
  const figures = [
    checked(SUITE, '/readyz after the delete: status', readiness.status, '==', 503),
    checked(
      SUITE,
      '/readyz state check names the deleted file',
      state?.message.includes('is gone') ? 1 : 0,
      '==',
      1,
    ),
    checked(SUITE, 'daemon exit code after the delete', code ?? -1, '==', 1),
    figure(SUITE, 'alerts pending when the dir was deleted', markers.length),
    figure(SUITE, 'pending alerts named in the log as undelivered', reported),
  ];
  return { figures, reported };
}

/** Phase 3: what a daemon says about a corrupt database and about a state.dir that cannot be a directory. */
async function badStates(rig: Rig): Promise<Figure[]> {
  const config = readFileSync(rig.dir.configPath, 'utf8');
  const corruptDir = join(rig.dir.dir, 'corrupt');
  mkdirSync(corruptDir);
  const corruptDb = join(corruptDir, 'state.db');
  writeFileSync(corruptDb, 'not a database; '.repeat(300));
  const messages: string[] = [];
  for (const [name, dir] of [
    ['corrupt', corruptDir],
    ['notdir', join(rig.dir.configPath, 'state')],
  ] as const) {
    const path = join(rig.dir.dir, `${name}.yaml`);
    writeFileSync(path, config.replace(/^state: .*$/m, `state: { dir: ${dir} }`));
    const daemon = spawnSentinel(['run', '--config', path]);
    const { code } = await daemon.exited;
    messages.push(code === 1 ? daemon.stderr() : `exit ${code}`);
  }
  const [corrupt = '', notdir = ''] = messages;
  const namesFile = corrupt.includes(corruptDb) && corrupt.includes(`mv ${corruptDb} ${corruptDb}.corrupt`);
  const stack = messages.filter((m) => /\n\s+at /.test(m)).length;
  return [
    checked(
      SUITE,
      'corrupt database: exit 1, message names the file and the fix',
      namesFile ? 1 : 0,
      '==',
      1,
    ),
    checked(
      SUITE,
      'state.dir under a file: exit 1, says "not a directory"',
      notdir.includes('(ENOTDIR)') ? 1 : 0,
      '==',
      1,
    ),
    checked(SUITE, 'stack traces in those messages', stack, '==', 0),
  ];
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const count = ctx.quick ? 20 : 60;
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-state-dir', tps: 50, lagMs: 300 },
    watched: 10,
    markers: count * 2,
    config: { pollInterval: '300ms', overlap: '5s' },
  });
  try {
    const first = Array.from({ length: count }, (_, i) => i);
    const second = Array.from({ length: count }, (_, i) => count + i);
    const figures = await twoOwners(rig, first);
    const deleted = await deletedWhileRunning(rig, second);
    figures.push(...deleted.figures);
    const result = await rig.settle(60_000);
    const silentlyLost = Math.max(0, result.lost.length - deleted.reported);
    figures.push(
      lostAlerts(SUITE, result),
      checked(SUITE, 'alerts lost silently (neither delivered nor named)', silentlyLost, '==', 0),
      checked(SUITE, 'duplicate alerts (two daemons, delete, restart)', result.duplicates, '==', 0),
      checked(SUITE, 'alerts not in the ground truth', result.unexpected.length, '==', 0),
      ...(await badStates(rig)),
    );
    return figures;
  } finally {
    await rig.close();
  }
}

export const stateDir: Scenario = { n: 13, name: 'state dir: two owners, deleted, corrupt', run };
