// Every notifier kind, one line each (docs/architecture.md). registry.test.ts fails when this list and the folders under
// src/notifiers/ disagree. Adding a kind: a new folder with config.ts + <kind>.ts + message.ts, one line here,
// one section in docs/notifiers.md.
import type { Writable } from 'node:stream';
import type { z } from 'zod';
import type { Logger } from '../observability/logger.js';
import type { Notifier } from './notifier.js';
import type { Pacers } from '../delivery/pacer.js';
import type { StateStore } from '../state/store.js';
import { alertmanager } from './alertmanager/alertmanager.js';
import { consoleNotifier } from './console/console.js';
import { discord } from './discord/discord.js';
import { email } from './email/email.js';
import { opsgenie } from './opsgenie/opsgenie.js';
import { pagerduty } from './pagerduty/pagerduty.js';
import { slack } from './slack/slack.js';
import { slackApp } from './slack-app/slack-app.js';
import { teams } from './teams/teams.js';
import { telegram } from './telegram/telegram.js';
import { webhook } from './webhook/webhook.js';

export interface NotifierDeps {
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly logger: Logger;
  /** Where the console notifier writes: stdout in the demo, stderr under `run` (stdout holds the JSON logs). */
  readonly stdout: Writable;
  /** Pacing per receiver (Slack: per webhook URL), shared by every notifier that sends there. */
  readonly pacers: Pacers;
  /** The state store, for notifiers that keep receiver state across restarts (slack-app: message ts); absent in `check`. */
  readonly store?: StateStore;
}

export interface NotifierKind<C extends { kind: string }> {
  readonly config: z.ZodType<C, unknown>;
  /** The secret values in a config, for the logger's value scrubbing and the leak contract test. */
  secrets(config: C): string[];
  create(name: string, config: C, deps: NotifierDeps): Notifier;
}

export const NOTIFIER_KINDS = {
  alertmanager,
  console: consoleNotifier,
  discord,
  email,
  opsgenie,
  pagerduty,
  slack,
  'slack-app': slackApp,
  teams,
  telegram,
  webhook,
} as const;

export type NotifierKindName = keyof typeof NOTIFIER_KINDS;
