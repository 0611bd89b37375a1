// The file-name patterns of rule paths (expand-paths.ts), matched in bounded time.
/**
 * `*` (any run) and `?` (one character) against a file name, without a regex: a backtracking RegExp built from
 * `*a*a*a*b` takes time exponential in the stars. This walk backs up only to the last star: O(name × pattern).
 */
export function globMatches(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const c = pattern.charAt(p);
    if (p < pattern.length && (c === '?' || c === name.charAt(n))) {
      p++;
      n++;
    } else if (c === '*') {
      star = p++;
      resume = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern.charAt(p) === '*') p++;
  return p === pattern.length;
}
