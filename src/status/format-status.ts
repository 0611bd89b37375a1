// Numbers and times as the status page prints them (pure).

/** `3 d 4 h`, `2 h 5 min`, `4 min 2 s`, `12.5 s`: two units at most, enough to read at a glance. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  const s = Math.max(0, seconds);
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const units: readonly [string, number][] = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ];
  const first = units.findIndex(([, size]) => s >= size);
  const [bigName, big] = units[first] ?? ['s', 1];
  const [smallName, small] = units[first + 1] ?? ['s', 1];
  const high = Math.floor(s / big);
  const low = Math.floor((s - high * big) / small);
  return low > 0 ? `${high} ${bigName} ${low} ${smallName}` : `${high} ${bigName}`;
}

/** ISO 8601 in UTC to the second, from ms since epoch. */
export function formatTime(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : '—';
}

/** How long ago, from ms since epoch. */
export function formatAgo(ms: number, now: number): string {
  return `${formatDuration((now - ms) / 1000)} ago`;
}
