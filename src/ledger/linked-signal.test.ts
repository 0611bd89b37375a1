import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { linkSignal } from './linked-signal.js';

describe('linkSignal', () => {
  it('leaves no listener on a long-lived parent once each of many linked calls is disposed', () => {
    const daemon = new AbortController();
    const worker = new AbortController();
    for (let i = 0; i < 1000; i++) {
      const link = linkSignal([daemon.signal, worker.signal]);
      // While linked, each parent listens for this child (so the check below can fail).
      if (i === 0) expect(getEventListeners(daemon.signal, 'abort')).toHaveLength(1);
      link.dispose();
    }
    expect(getEventListeners(daemon.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(worker.signal, 'abort')).toHaveLength(0);
  });

  it('aborts the child with the reason of whichever parent aborts while linked, and unlinks the others', () => {
    const a = new AbortController();
    const b = new AbortController();
    const link = linkSignal([a.signal, undefined, b.signal]);
    const reason = new Error('shutting down');
    b.abort(reason);
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe(reason);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
    a.abort(new Error('later'));
    expect(link.signal.reason).toBe(reason);
  });

  it('aborts the child at once when a parent has already aborted, linking nothing', () => {
    const live = new AbortController();
    const gone = new AbortController();
    gone.abort('stopped');
    const link = linkSignal([live.signal, gone.signal]);
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('stopped');
    expect(getEventListeners(live.signal, 'abort')).toHaveLength(0);
  });

  it('does not abort the child after dispose, and leaves the parent usable', () => {
    const parent = new AbortController();
    const link = linkSignal([parent.signal]);
    link.dispose();
    link.dispose();
    parent.abort();
    expect(link.signal.aborted).toBe(false);
  });

  it('uses a given controller as the child: aborting it yourself unlinks the parents', () => {
    const parent = new AbortController();
    const own = new AbortController();
    const link = linkSignal([parent.signal], own);
    expect(link.signal).toBe(own.signal);
    own.abort('stop this one');
    expect(link.signal.reason).toBe('stop this one');
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    expect(parent.signal.aborted).toBe(false);
  });
});
