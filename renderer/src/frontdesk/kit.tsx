import { useCallback, useEffect, useState } from 'react';
import { problemText } from '../problems.ts';
import { TextInput } from '../settings/kit.tsx';

/** Lists refresh themselves this often while shown: visitors come and go while staff look. */
const refreshMs = 10_000;

/** What `load` answers, loaded now and every `refreshMs`, with `reload` for after an action. */
export function useLive<T>(load: () => Promise<T>) {
  const [value, setValue] = useState<T>();
  const [problem, setProblem] = useState<string>();
  const reload = useCallback(
    () =>
      load().then(
        (loaded) => {
          setValue(loaded);
          setProblem(undefined);
        },
        (error) => setProblem(problemText(error)),
      ),
    [load],
  );
  useEffect(() => {
    void reload();
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload]);
  return { value, problem, reload };
}

/** A search field that filters what is shown as staff type. */
export function SearchBox(props: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="search-box">
      <TextInput label={props.label} type="search" value={props.value} onChange={props.onChange} maxLength={200} />
    </div>
  );
}
