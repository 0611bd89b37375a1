// Which alerts a receiver has already accepted, for the notifiers that send one request per alert (PagerDuty,
// Opsgenie). A retry of a digest then sends only what is left, so a digest larger than one attempt can carry (pacing,
// a 429 halfway, the send timeout) still makes progress instead of starting over each time. In memory and bounded:
// after a restart the first requests are sent again, which the services' dedup_key / alias make harmless.
export interface AcceptedMemory {
  has(alertId: string): boolean;
  add(alertId: string): void;
}

export function createAcceptedMemory(max = 10_000): AcceptedMemory {
  const ids = new Set<string>();
  return {
    has: (id) => ids.has(id),
    add(id) {
      ids.delete(id);
      ids.add(id);
      // A Set iterates in insertion order: the first entry is the oldest.
      if (ids.size > max) ids.delete(ids.values().next().value as string);
    },
  };
}
