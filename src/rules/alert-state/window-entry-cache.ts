// Stored group states write their window as [time, amount] decimal pairs, and a window near its threshold is
// written whole on every match: at a count of 50, fifty bigint-to-text conversions and fifty new pairs per match,
// nearly all of them made the match before. A bounded map of the latest entries answers those (a lookup costs
// about half a conversion, and allocates nothing) and, cleared when full, never holds more than `size` of them.

/** A stored window entry: [consensus ns, amount in tinybars], both as decimal text. Shared, so never mutated. */
export type StoredEntry = readonly [string, string];

/** The stored entry of a window time; `amount` undefined for count windows, which keep none ("0"). */
export type WindowEntry = (t: bigint, amount: bigint | undefined) => StoredEntry;

export function windowEntryCache(size = 4096): WindowEntry {
  const counts = new Map<bigint, StoredEntry>();
  return (t, amount) => {
    let entry = counts.get(t);
    if (entry === undefined) {
      if (counts.size >= size) counts.clear();
      counts.set(t, (entry = [t.toString(), '0']));
    }
    return amount === undefined ? entry : [entry[0], amount.toString()];
  };
}

/** Without a cache: a new entry every time. */
export function newWindowEntry(t: bigint, amount: bigint | undefined): StoredEntry {
  return [t.toString(), amount === undefined ? '0' : amount.toString()];
}
