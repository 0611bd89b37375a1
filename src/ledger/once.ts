// "Have we said this already?" for log lines about ledger data: an overlap re-scan reads the same records
// every poll, and one warning per record is enough. Bounded: past `limit` keys it forgets them all (and
// may say each once more) rather than grow with a hostile or endless stream of bad records.
export function once(limit = 10_000): (key: string) => boolean {
  const said = new Set<string>();
  return (key) => {
    if (said.has(key)) return false;
    if (said.size >= limit) said.clear();
    said.add(key);
    return true;
  };
}
