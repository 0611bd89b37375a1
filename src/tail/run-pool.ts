/** Runs jobs in order with at most `concurrency` at once; resolves when all have settled (jobs catch their own errors). */
export async function runPool(jobs: readonly (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0;
  async function worker(): Promise<void> {
    while (next < jobs.length) {
      const job = jobs[next++];
      if (job) await job();
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
}
