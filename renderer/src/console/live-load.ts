import { useCallback, useEffect, useRef, useState } from 'react';
import { type Topic, useLive } from './live.ts';

/**
 * A page's data, read with `load` when the page opens and again whenever one of `topics` moves in the company
 * (`useLive`, docs/console.md, "Live updates") or the channel reconnects. An answer older than one already shown is
 * dropped (reads may cross), so the page never goes back in time.
 */
export function useLiveLoad<T>(load: () => Promise<T>, topics: readonly Topic[]) {
  const [value, setValue] = useState<T>();
  const [problem, setProblem] = useState<unknown>();
  const asked = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++asked.current;
    try {
      const loaded = await load();
      if (mine !== asked.current) return;
      setValue(loaded);
      setProblem(undefined);
    } catch (error) {
      if (mine === asked.current) setProblem(error);
    }
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const wanted = useRef(topics);
  wanted.current = topics;
  useLive((moved) => {
    // No topic: the channel reconnected, and anything may have moved meanwhile.
    if (moved.length === 0 || moved.some((topic) => wanted.current.includes(topic))) void reload();
  });
  return { value, problem, reload };
}
