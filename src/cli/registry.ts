// Every subcommand, one line each. A test checks that this list and the files in src/cli/ agree.
import type { Command } from './command.js';
import { backtest } from './backtest.js';
import { check } from './check.js';
import { demo } from './demo.js';
import { quarantine } from './quarantine.js';
import { run } from './run.js';
import { simulate } from './simulate.js';
import { state } from './state.js';
import { test } from './test.js';
import { verify } from './verify.js';
import { silence } from './silence.js';
import { alerts } from './alerts.js';
import { ack } from './ack.js';

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
];
