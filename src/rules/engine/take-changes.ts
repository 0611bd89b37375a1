// The group states changed since the last call, as the state repository writes them; clears the change marks.
// Plain loops: this runs once per page over every state a match touched, and spreading the dirty set into
// temporary arrays (then flatMap's one-element arrays) cost as much as storing the states themselves.
import type { EngineState } from './engine-state.js';
import type { StateChanges } from '../alert-state/group-state.js';
import type { StoredGroupState } from '../alert-state/group-state.js';

export function takeChanges(state: EngineState): StateChanges {
  const upserts: StoredGroupState[] = [];
  // dropState takes a state out of `dirty` as it drops it, so every state here is current.
  for (const s of state.dirty) upserts.push(state.store(s));
  for (const g of state.pending.takeDirty()) upserts.push(g);
  const deletes = state.deleted.size === 0 ? [] : [...state.deleted];
  state.dirty.clear();
  state.deleted.clear();
  return { upserts, deletes };
}
