// Builds the configured notifiers (name → channel) from the validated `notifiers:` section.
import { NotifyError, type Notifier } from '../notifiers/notifier.js';
import { createPacers, type Pacers } from './pacer.js';
import { redact } from '../notifiers/redact.js';
import { NOTIFIER_KINDS, type NotifierDeps, type NotifierKind } from '../notifiers/registry.js';
import type { NotifierConfig, Notifiers } from '../notifiers/schema.js';

export interface Channel {
  readonly notifier: Notifier;
  readonly groupWaitMs: number;
  readonly deadlineMs: number;
  /** Cap on a receiver's Retry-After (max_retry_after; default 60 s). */
  readonly maxRetryAfterMs?: number;
  /** Bound of one send, pacing included (sendTimeoutMs()); unbounded when absent. */
  readonly sendTimeoutMs?: number;
  /** Alertmanager only: how often its firing alerts are posted again (resend.ts); never for paging receivers. */
  readonly resendIntervalMs?: number;
}

/**
 * One send may take the notifier's `timeout` for each of its phases (connect, answer; SMTP has more) plus one
 * pacing interval: twice the timeout, plus the interval, plus 5 s, before the worker abandons it.
 */
export function sendTimeoutMs(config: NotifierConfig): number {
  const timeout = 'timeout' in config ? config.timeout : 10_000;
  const interval = 'min_interval' in config ? config.min_interval : 0;
  return 2 * timeout + interval + 5000;
}

/** `pacers` defaults to a new set shared by these channels; pass one to keep the pacing across a reload. */
export type ChannelDeps = Omit<NotifierDeps, 'pacers'> & { readonly pacers?: Pacers };

export function createChannels(configs: Notifiers, deps: ChannelDeps): Map<string, Channel> {
  const shared: NotifierDeps = { ...deps, pacers: deps.pacers ?? createPacers(deps) };
  const channels = new Map<string, Channel>();
  for (const [name, config] of Object.entries(configs)) {
    const kind = kindOf(config);
    const notifier = scrubbed(kind.create(name, config, shared), kind.secrets(config));
    channels.set(name, {
      notifier,
      groupWaitMs: config.group_wait,
      deadlineMs: config.deadline,
      maxRetryAfterMs: config.max_retry_after,
      sendTimeoutMs: sendTimeoutMs(config),
      ...('resend_interval' in config ? { resendIntervalMs: config.resend_interval } : {}),
    });
  }
  return channels;
}

/** Every secret value in the notifier configs: pass them to createLogger({secrets}). */
export function notifierSecrets(configs: Notifiers): string[] {
  return Object.values(configs).flatMap((config) => kindOf(config).secrets(config));
}

function kindOf(config: NotifierConfig): NotifierKind<NotifierConfig> {
  return NOTIFIER_KINDS[config.kind] as unknown as NotifierKind<NotifierConfig>;
}

/** Second line of defence: a NotifyError message that somehow carries one of the notifier's secrets is scrubbed. */
function scrubbed(notifier: Notifier, secrets: readonly string[]): Notifier {
  return {
    name: notifier.name,
    kind: notifier.kind,
    async send(notification, signal) {
      try {
        return await notifier.send(notification, signal);
      } catch (err) {
        if (!(err instanceof NotifyError) || redact(err.message, secrets) === err.message) throw err;
        throw new NotifyError(redact(err.message, secrets), err);
      }
    },
  };
}
