// The config file: one strict object, one line per section. A room owning a section exports its schema (the
// imports below say where each lives: the shared sections in config/sections/, the others in their room) and
// adds one import and one line to CONFIG_SECTIONS. The composition sits above every room it imports; only the
// app, the commands and tests import it (test/repo/layout.test.ts).
import { z } from 'zod';
import { ExplorerConfig } from '../config/sections/explorer.js';
import { HttpConfig } from '../config/sections/http.js';
import { LedgerConfig } from '../config/sections/ledger.js';
import { LogConfig } from '../config/sections/log.js';
import { StateConfig } from '../config/sections/state.js';
import { VerificationConfig } from '../config/sections/verification.js';
import { SelfMonitoringConfig } from '../self-monitor/self-monitoring-config.js';
import { DaemonConfig } from '../config/sections/daemon.js';
import { InhibitRules } from '../delivery/inhibit-rules.js';
import { Notifiers, Routes, Silences, unknownNotifierRefs } from '../notifiers/schema.js';
import { TimeIntervals, unknownTimeIntervalRefs } from '../notifiers/time-intervals-config.js';
import { RulesConfig } from '../rules/load/rules-config.js';
import { HeartbeatConfig } from '../self-monitor/heartbeat-config.js';
import { HaConfig, haBackendIssue } from '../state/ha-config.js';
import { AccountsConfig } from '../accounts/accounts-config.js';
import { TokensConfig } from '../tokens/tokens-config.js';
import { TailConfig } from '../tail/tail-config.js';

export const CONFIG_SECTIONS = {
  ledger: LedgerConfig,
  verification: VerificationConfig.optional(),
  explorer: ExplorerConfig.prefault({}),
  accounts: AccountsConfig,
  tokens: TokensConfig,
  tail: TailConfig,
  rules: RulesConfig.prefault({}),
  notifiers: Notifiers.default({}),
  routes: Routes,
  silences: Silences,
  time_intervals: TimeIntervals,
  inhibit_rules: InhibitRules,
  state: StateConfig.prefault({}),
  http: HttpConfig.prefault({}),
  log: LogConfig.prefault({}),
  daemon: DaemonConfig.prefault({}),
  self_monitoring: SelfMonitoringConfig.prefault({}),
  heartbeat: HeartbeatConfig.optional(),
  ha: HaConfig.prefault({}),
};

// Notifier names are checked across sections: routes, silences and self_monitoring must name configured ones.
export const Config = z.strictObject(CONFIG_SECTIONS).superRefine((config, ctx) => {
  for (const issue of unknownNotifierRefs(config.notifiers, config.routes, config.silences))
    ctx.addIssue({ code: 'custom', ...issue });
  for (const issue of unknownTimeIntervalRefs(config.time_intervals, config.routes))
    ctx.addIssue({ code: 'custom', ...issue });
  const known = Object.keys(config.notifiers);
  config.self_monitoring.notify.forEach((name, i) => {
    if (!known.includes(name))
      ctx.addIssue({
        code: 'custom',
        path: ['self_monitoring', 'notify', i],
        message: `unknown notifier "${name}"; configured notifiers: ${known.sort().join(', ') || 'none configured'}`,
      });
  });
  const ha = haBackendIssue(config.ha, config.state.backend);
  if (ha) ctx.addIssue({ code: 'custom', ...ha });
});
export type Config = z.output<typeof Config>;
