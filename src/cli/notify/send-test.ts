// Sends the test alert through a notifier as the daemon would (the channel createChannels builds: its secrets,
// pacing, timeouts and scrubbing) and says what the receiver answered, or why it failed. One attempt each: the
// daemon would retry a retryable failure; a test says so and fails.
import type { Writable } from 'node:stream';
import type { Channel } from '../../delivery/channels.js';
import { NotifyError, type SendReceipt } from '../../notifiers/notifier.js';
import type { Alert } from '../../rules/alert/alert.js';
import { linkSignal } from '../../ledger/linked-signal.js';

export interface SendTestOptions {
  readonly name: string;
  readonly channel: Channel;
  readonly alerts: readonly Alert[];
  readonly out: Writable;
  readonly signal: AbortSignal;
}

/** True when every alert was accepted; prints one line per alert. */
export async function sendTest(options: SendTestOptions): Promise<boolean> {
  const { name, channel, out } = options;
  for (const alert of options.alerts) {
    const what = `${alert.status === 'firing' ? 'test alert' : 'its resolve'} to notifier "${name}" (${channel.notifier.kind})`;
    const link = linkSignal([options.signal, AbortSignal.timeout(channel.sendTimeoutMs ?? 30_000)]);
    try {
      const receipt = await channel.notifier.send({ kind: 'single', alert }, link.signal);
      out.write(`sent ${what}: accepted${answerText(receipt)}\n`);
    } catch (err) {
      out.write(`FAILED ${what}: ${failureText(err)}\n`);
      return false;
    } finally {
      link.dispose();
    }
  }
  return true;
}

function answerText(receipt: SendReceipt | void): string {
  if (!receipt) return '';
  const status = receipt.status === undefined ? '' : ` (HTTP ${receipt.status})`;
  return `${status}${receipt.answer ? `: ${receipt.answer}` : ''}`;
}

function failureText(err: unknown): string {
  if (!(err instanceof NotifyError))
    return `the notifier failed unexpectedly (${err instanceof Error ? err.name : typeof err})`;
  const verdict = err.retryable
    ? 'retryable: the daemon would retry it with backoff until the deadline'
    : 'permanent: the daemon would dead-letter it at once; fix the notifier config or the receiver';
  return `${err.message} [${verdict}]`;
}
