// Whether a match of a rule without a window sends a notification, whatever order its records arrive in.
import type { GroupState } from '../alert-state/group-state.js';

/**
 * Due when no notification went out yet, or the match is at least `throttleNs` away — either way in time — from
 * the newest notification sent and from the oldest one sent for an earlier late record. A record older than the
 * last notification (a page served out of order, two accounts' streams sharing a group) is throttled by how far
 * it is from the notifications around it, not dropped because it is "before" them. Notes a late send in the state.
 */
export function throttleDue(s: GroupState, t: bigint, throttleNs: bigint): boolean {
  if (s.lastSentNs === undefined) return true;
  const due =
    distance(t, s.lastSentNs) >= throttleNs &&
    (s.lateSentNs === undefined || distance(t, s.lateSentNs) >= throttleNs);
  if (due && t < s.lastSentNs) s.lateSentNs = t;
  return due;
}

function distance(a: bigint, b: bigint): bigint {
  return a > b ? a - b : b - a;
}
