import type { Notifier } from '../notifier.js';
import { NotifyError } from '../notifier.js';
import type { NotifierKind } from '../notifier-kind.js';
import { ConsoleConfig } from './config.js';
import { consoleLines } from './message.js';

export const consoleNotifier: NotifierKind<ConsoleConfig> = {
  config: ConsoleConfig,
  secrets: (_config) => [],
  create(name, config, deps): Notifier {
    return {
      name,
      kind: 'console',
      send(notification) {
        const text = consoleLines(notification, config.group_max_listed).join('\n') + '\n';
        return new Promise((resolve, reject) => {
          deps.stdout.write(text, (err) =>
            err
              ? reject(new NotifyError('console write failed', { retryable: true, reason: 'write' }))
              : resolve(),
          );
        });
      },
    };
  },
};
