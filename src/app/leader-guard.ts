// The last check before anything goes on the wire: every send first asks whether this replica still leads by its
// own clock (state/lease.ts), so a leader that self-fenced — or was paused and has not noticed yet — never sends,
// even while its runtime is still being stopped. Nothing was sent, so the row is postponed without counting as an
// attempt (a deferred NotifyError) and the next leader delivers it.
import type { Channel } from '../delivery/channels.js';
import { NotifyError } from '../notifiers/notifier.js';

export function guardChannels(
  channels: ReadonlyMap<string, Channel>,
  leading: () => boolean,
): Map<string, Channel> {
  const guarded = new Map<string, Channel>();
  for (const [name, channel] of channels) {
    const { notifier } = channel;
    const send: typeof notifier.send = (notification, signal) => {
      if (!leading())
        return Promise.reject(
          new NotifyError('not sent: this replica no longer holds the lease (another replica delivers it)', {
            retryable: true,
            deferred: true,
            reason: 'not_leader',
          }),
        );
      return notifier.send(notification, signal);
    };
    guarded.set(name, { ...channel, notifier: { name: notifier.name, kind: notifier.kind, send } });
  }
  return guarded;
}
