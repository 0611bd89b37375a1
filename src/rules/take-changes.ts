// The group states changed since the last call, as the state repository writes them; clears the change marks.
import type { EngineState } from './engine-state.js';
import type { StateChanges } from './engine.js';

export function takeChanges(state: EngineState): StateChanges {
  const changes = {
    upserts: [
      ...[...state.dirty].flatMap((k) => {
        const s = state.states.get(k);
        return s ? [state.store(s)] : [];
      }),
      ...state.pending.takeDirty(),
    ],
    deletes: [...state.deleted],
  };
  state.dirty.clear();
  state.deleted.clear();
  return changes;
}
