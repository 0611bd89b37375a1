// Field types shared by the notifier schemas (from config/, so the loader gives secrets their `*_file` twins and
// durations one error message), plus the keys every notifier kind accepts.
import { z } from 'zod';
import { duration } from '../config/duration.js';
import { httpUrl } from '../config/http-url.js';
import { secret } from '../config/secret.js';
import { secretUrl } from './secret-url.js';

export { duration, httpUrl, secret, secretUrl };

/** Keys every notifier accepts: storm control and the delivery deadline. */
export const commonKeys = {
  /** Wait this long after the first alert of a rule before sending, to fold a burst into one digest. */
  group_wait: duration({ max: '1h' }).default(10_000),
  /** A digest lists the first N alerts and says "and K more". */
  group_max_listed: z.number().int().min(1).max(40).default(10),
  /** After this long without a successful send the alert goes to the dead-letter list. */
  deadline: duration({ min: '1s' }).default(3_600_000),
  /**
   * The longest pause a receiver's Retry-After can impose (a `Retry-After: 3600` waits this long, then the alert
   * is tried again). Never dead-letters anything by itself.
   */
  max_retry_after: duration({ max: '1h' }).default(60_000),
};
