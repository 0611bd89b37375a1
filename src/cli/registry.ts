// Every subcommand, one line each. A test checks that this list and the files in src/cli/ agree.
import type { Command } from './command.js';
import { simulate } from './simulate.js';

export const COMMANDS: readonly Command[] = [simulate];
