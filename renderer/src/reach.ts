import { useSyncExternalStore } from 'react';

/** Whether the last call reached the local service; screens show a banner while it does not. */
let reached = true;
const listeners = new Set<() => void>();

export function setReached(value: boolean): void {
  if (value === reached) return;
  reached = value;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const useReached = () => useSyncExternalStore(subscribe, () => reached);
