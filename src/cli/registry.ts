// Every subcommand, one line each. A test checks that this list and the folders in src/cli/ agree.
import type { Command } from './command.js';
import { backtest } from './backtest/backtest.js';
import { check } from './check/check.js';
import { demo } from './demo/demo.js';
import { quarantine } from './quarantine/quarantine.js';
import { run } from './run/run.js';
import { simulate } from './simulate/simulate.js';
import { state } from './state/state.js';
import { test } from './test/test.js';
import { verify } from './verify/verify.js';
import { silence } from './silence/silence.js';
import { alerts } from './alerts/alerts.js';
import { ack } from './ack/ack.js';
import { notify } from './notify/notify.js';

export const COMMANDS: readonly Command[] = [
  run,
  check,
  demo,
  simulate,
  verify,
  backtest,
  quarantine,
  state,
  test,
  silence,
  alerts,
  ack,
  notify,
];
