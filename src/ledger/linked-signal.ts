/**
 * A child signal that aborts when any parent does (with that parent's reason), for work shorter than its
 * parents. Not `AbortSignal.any`: on Node 20 a child made by it that still has an abort listener is held by Node
 * until a parent aborts, and a parent that lives as long as the daemon (its stop signal, the delivery worker's)
 * then keeps every such child of every round, poll, request and send (docs/performance.md, section 6). Here the
 * parents hold the child only through listeners, which `dispose()` removes: call it in a `finally`.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Unlinks the child from its parents (idempotent); the child keeps its state. */
  dispose(): void;
}

/**
 * Links `child` (a fresh controller unless given: pass one to abort the child yourself as well) to `parents`
 * (undefined entries are skipped). An already-aborted parent aborts the child at once and nothing is linked.
 */
export function linkSignal(
  parents: readonly (AbortSignal | undefined)[],
  child: AbortController = new AbortController(),
): LinkedSignal {
  const linked: { parent: AbortSignal; onAbort: () => void }[] = [];
  function dispose(): void {
    for (const { parent, onAbort } of linked.splice(0)) parent.removeEventListener('abort', onAbort);
  }
  if (child.signal.aborted) return { signal: child.signal, dispose };
  // A child aborted by its own controller needs its parents no longer.
  child.signal.addEventListener('abort', dispose, { once: true });
  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      child.abort(parent.reason);
      break;
    }
    const onAbort = () => child.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    linked.push({ parent, onAbort });
  }
  return { signal: child.signal, dispose };
}
