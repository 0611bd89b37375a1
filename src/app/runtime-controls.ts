// What operators change at runtime, built once per process over the state store: API silences, acks, the
// suppression the delivery worker consults, and the alert view the API and the status page read.
import type { Config } from '../config-file/schema.js';
import { createAckStore, type AckStore } from '../delivery/ack-store.js';
import { createAlertView, type AlertView } from '../delivery/alert-view.js';
import type { Silence } from '../notifiers/schema.js';
import { createSilenceStore, type SilenceStore } from '../delivery/silence-store.js';
import { createSuppression, type Suppression } from '../delivery/suppression.js';
import type { Metrics } from '../observability/metrics.js';
import type { StateStore } from '../state/store.js';

export interface RuntimeControls {
  readonly silences: SilenceStore;
  readonly acks: AckStore;
  readonly suppression: Suppression;
  readonly alerts: AlertView;
  /** The current config's silences (read-only through the API). */
  configSilences(): readonly Silence[];
  /** A reload: the new config's silences and inhibition rules. */
  apply(config: Config): void;
}

export interface RuntimeControlsDeps {
  readonly store: StateStore;
  readonly metrics: Metrics;
  readonly clock: () => number;
  readonly config: Config;
}

/** Needs the outbox's tables (createOutbox first): the view and the inhibition read them. */
export function createRuntimeControls(deps: RuntimeControlsDeps): RuntimeControls {
  const { store, metrics, clock } = deps;
  let configSilences = deps.config.silences;
  const silences = createSilenceStore(store, clock);
  const acks = createAckStore(store, clock);
  const suppression = createSuppression({
    store,
    silences,
    acks,
    metrics,
    inhibitRules: deps.config.inhibit_rules,
  });
  const alerts = createAlertView({
    store,
    acks,
    clock,
    silencedBy: (alert, now) => suppression.silencedBy(alert, now),
    configSilences: () => configSilences,
  });
  return {
    silences,
    acks,
    suppression,
    alerts,
    configSilences: () => configSilences,
    apply(config) {
      configSilences = config.silences;
      suppression.setInhibitRules(config.inhibit_rules);
    },
  };
}
