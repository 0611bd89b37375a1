// CPU time per page of several contenders on a loaded machine: each contender runs the same pages in chunks of 10,
// timed in CPU time (process.cpuUsage), keeping each chunk's minimum over many alternating rounds and summing those.
// With other sessions on 2 cores a whole 200-page round almost never runs undisturbed, a 10-page chunk often does,
// so the per-chunk minima are the contenders' own cost. Used by bench 1 (pipeline.bench.ts) and pipeline-cpu.ts.

const CHUNK = 10;

/** CPU µs per page of each contender: per-chunk minima over `rounds` (the first 3 warm up), summed. */
export function cpuPerPage(
  pages: readonly string[],
  contenders: ((t: string) => void)[],
  rounds: number,
): number[] {
  const chunks = Math.ceil(pages.length / CHUNK);
  const best = contenders.map(() => new Array<number>(chunks).fill(Infinity));
  for (let r = 0; r < rounds; r++)
    for (let c = 0; c < chunks; c++)
      contenders.forEach((run, i) => {
        const start = process.cpuUsage();
        for (const text of pages.slice(c * CHUNK, (c + 1) * CHUNK)) run(text);
        const used = process.cpuUsage(start);
        const row = best[i] as number[];
        if (r >= 3) row[c] = Math.min(row[c] as number, used.user + used.system);
      });
  return best.map((row) => row.reduce((a, b) => a + b, 0) / pages.length);
}
