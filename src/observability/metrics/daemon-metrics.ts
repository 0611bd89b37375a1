// The daemon's own metrics: build, configuration loads and reloads, the state store.
import { Counter, Gauge, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** The daemon itself: build, configuration loads, the state store. */
export function daemonMetrics(r: Registry[]) {
  return {
    buildInfo: new Gauge({
      name: `${P}build_info`,
      help: 'Build information; always 1.',
      labelNames: ['version', 'node'],
      registers: r,
    }),
    configReloadSuccess: new Gauge({
      name: `${P}config_last_reload_successful`,
      help: '1 if the last configuration (re)load succeeded, else 0.',
      registers: r,
    }),
    configReloadTime: new Gauge({
      name: `${P}config_last_reload_success_timestamp_seconds`,
      help: 'Unix time of the last successful configuration load.',
      registers: r,
    }),
    stateStoreHealthy: new Gauge({
      name: `${P}state_store_healthy`,
      help: '1 while the open state database is the one at state.dir and writable; 0 once it was lost.',
      registers: r,
    }),
  };
}

/** Configuration reloads (in place) and the file events that changed nothing. */
export function reloadMetrics(r: Registry[]) {
  return {
    configReloads: new Counter({
      name: `${P}config_reloads_total`,
      help: 'Configuration reloads by outcome: applied (the parts that changed were swapped) or rejected (invalid; the running config stays).',
      labelNames: ['outcome'],
      registers: r,
    }),
    configReloadNoops: new Counter({
      name: `${P}config_reload_noops_total`,
      help: 'File changes that reloaded nothing: unrelated_file (another file in a watched folder), same_content (the files the config reads are unchanged).',
      labelNames: ['reason'],
      registers: r,
    }),
  };
}
