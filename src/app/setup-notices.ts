// What a fresh install still lacks before it can alert (no enabled rule, no watched account, no notifier): said
// once in the log at start and after each reload, and at the top of the status page, with the next step. A
// default `helm install` starts this way on purpose (docs/deployment.md, "First install").
// Rule warnings (a valid rule that is probably not meant) join them, each at its file:line:col.
import { formatIssue } from '../config/config-error.js';
import type { Loaded } from './load-all.js';

export function setupNotices(loaded: Loaded): string[] {
  const notices: string[] = [];
  if (loaded.ruleSet.rules.length === 0)
    notices.push(
      'No rule is enabled, so no alert can fire. Add rule files (Helm: rules.files or rules.existingConfigMap; ' +
        'otherwise rules.paths in the config file) or set enabled: true on a rule; the rule language is in ' +
        'rules/README.md.',
    );
  if (loaded.accounts.length === 0)
    notices.push(
      'No account is watched, so nothing is tailed. List the accounts under accounts: in the config file ' +
        '(Helm: config.accounts); docs/configuration.md, "accounts".',
    );
  if (Object.keys(loaded.config.notifiers).length === 0)
    notices.push(
      'No notifier is configured: alerts are shown here and by the API only. Add one under notifiers: ' +
        '(Helm: config.notifiers, its secret from a mounted Secret with a *_file key); docs/notifiers.md.',
    );
  for (const warning of loaded.warnings ?? []) notices.push(`Rule warning: ${formatIssue(warning)}`);
  return notices;
}
