// The throttle of an alert key: how far apart its notifications must be. The one place that compares a time with a
// notification's: a repeat of a firing window or absence, a match of a rule without a window, a group forgotten as
// stale all ask here, so they cannot drift apart (a stale group dropped while its throttle still held would let the
// next match through).
import type { GroupState } from '../alert-state/group-state.js';

/**
 * At least `throttleNs` after the last notification (none sent yet: passed). One way only: a time before the last
 * notification (a clock stepped back, an older record) has not passed it, however far back it is.
 */
export function throttlePassed(lastSentNs: bigint | undefined, atNs: bigint, throttleNs: bigint): boolean {
  return lastSentNs === undefined || atNs - lastSentNs >= throttleNs;
}

/**
 * Due when no notification went out yet, or the match is at least `throttleNs` away — either way in time — from
 * the newest notification sent and from the oldest one sent for an earlier late record. A record older than the
 * last notification (a page served out of order, two accounts' streams sharing a group) is throttled by how far
 * it is from the notifications around it, not dropped because it is "before" them. Notes a late send in the state.
 */
export function throttleDue(s: GroupState, t: bigint, throttleNs: bigint): boolean {
  if (s.lastSentNs === undefined) return true;
  const due = apart(t, s.lastSentNs, throttleNs) && apart(t, s.lateSentNs, throttleNs);
  if (due && t < s.lastSentNs) s.lateSentNs = t;
  return due;
}

/** `t` is at least `throttleNs` from the notification at `sentNs`, before or after it (none: apart). */
function apart(t: bigint, sentNs: bigint | undefined, throttleNs: bigint): boolean {
  return (
    sentNs === undefined || throttlePassed(sentNs, t, throttleNs) || throttlePassed(t, sentNs, throttleNs)
  );
}
