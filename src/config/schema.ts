// The config file: one strict object, one line per section. A module owning a section exports its schema
// (`<module>/config.ts`) and adds one import and one line to CONFIG_SECTIONS.
import { z } from 'zod';
import { ExplorerConfig } from './sections/explorer.js';
import { HttpConfig } from './sections/http.js';
import { LedgerConfig } from './sections/ledger.js';
import { LogConfig } from './sections/log.js';
import { StateConfig } from './sections/state.js';
import { VerificationConfig } from './sections/verification.js';

export const CONFIG_SECTIONS = {
  ledger: LedgerConfig,
  verification: VerificationConfig.optional(),
  explorer: ExplorerConfig.prefault({}),
  // tail/: accounts, tail — rules/: rules — notifiers/: notifiers, routes, silences
  state: StateConfig.prefault({}),
  http: HttpConfig.prefault({}),
  log: LogConfig.prefault({}),
};

export const Config = z.strictObject(CONFIG_SECTIONS);
export type Config = z.output<typeof Config>;
