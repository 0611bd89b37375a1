// `npm run chaos`: the chaos suite of issue #8. Every scenario prints its figures with pass/fail; the exit code is
// 1 when any figure fails (a scenario that is not implemented counts as a failure, never as a pass).
//
//   node --conditions=source --import tsx chaos/run.ts [--quick] [--only 1,5,7]
//
// Scenario 7 (secrets) scans the logs and metrics of every scenario that ran before it in the same run.
import { parseArgs } from 'node:util';
import { failed, formatTable, type Figure } from '../bench/lib/figures.js';
import { describeMachine, machine } from '../bench/lib/machine.js';
import { newSession, type Scenario } from './lib/scenario.js';
import { kill9 } from './kill-9.js';
import { queryFaults } from './query-faults.js';
import { slackOutage } from './slack-outage.js';
import { smtpOutage } from './smtp-outage.js';
import { malformedConfig } from './malformed-config.js';
import { hostileMemos } from './hostile-memos.js';
import { secrets } from './secrets.js';
import { load } from './load.js';
import { stateDir } from './state-dir.js';
import { hostileRegexes } from './hostile-regexes.js';
import { trickleEndless } from './trickle-endless.js';
import { orderAttribution } from './order-attribution.js';
import { retryAfterScenario } from './retry-after.js';
import { propertyFaults } from './property-faults.js';
import { futureTimestamps } from './future-timestamps.js';
import { failover } from './failover.js';
import { nearFutureHead } from './near-future-head.js';
import { clockStep } from './clock-step.js';
import { namesAndViews } from './names-and-views.js';
import { exitBound } from './exit-bound.js';
import { pgFailoverBehind } from './pg-failover-behind.js';
import { pgDiskFull } from './pg-disk-full.js';
import { receiverDownLong } from './receiver-down-long.js';

const SCENARIOS: readonly Scenario[] = [
  kill9,
  queryFaults,
  slackOutage,
  smtpOutage,
  malformedConfig,
  hostileMemos,
  secrets,
  load,
  stateDir,
  hostileRegexes,
  trickleEndless,
  orderAttribution,
  retryAfterScenario,
  propertyFaults,
  futureTimestamps,
  failover,
  nearFutureHead,
  clockStep,
  namesAndViews,
  exitBound,
  pgFailoverBehind,
  pgDiskFull,
  receiverDownLong,
];

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const only = values.only?.split(',').map((s) => Number(s.trim()));
if (only?.some((n) => !SCENARIOS.some((s) => s.n === n))) {
  console.error(`chaos: --only takes scenario numbers 1-${SCENARIOS.length}, e.g. --only 5,6,7`);
  process.exit(2);
}

console.log(`ledger-sentinel chaos suite${values.quick ? ' (--quick)' : ''}: ${describeMachine(machine())}`);
const session = newSession();
const all: Figure[] = [];
for (const scenario of SCENARIOS) {
  if (only && !only.includes(scenario.n)) continue;
  console.log(`\n▶ ${scenario.n}. ${scenario.name}`);
  const started = Date.now();
  let figures: Figure[];
  try {
    figures = await scenario.run({ quick: values.quick, log: (line) => console.log(`  ${line}`), session });
  } catch (err) {
    console.error(err);
    figures = [failed(`${scenario.n} ${scenario.name}`, err)];
  }
  console.log(formatTable(figures));
  console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  all.push(...figures);
}

const failures = all.filter((f) => f.pass === false);
console.log(`\n${formatTable(all)}`);
console.log(`\n${all.filter((f) => f.pass === true).length} figures hold, ${failures.length} fail`);
process.exitCode = failures.length > 0 ? 1 : 0;
