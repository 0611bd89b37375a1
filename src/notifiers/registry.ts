// Every notifier kind, one line each (docs/architecture.md). registry.test.ts fails when this list and the folders under
// src/notifiers/ disagree. Adding a kind: a new folder with config.ts + <kind>.ts + message.ts, one line here,
// one section in docs/notifiers.md.
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

export type { NotifierDeps, NotifierKind } from './notifier-kind.js';

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
