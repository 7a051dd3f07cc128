import { useEffect, useRef } from 'react';

/** What moved in the company (visits, invitees, hosts…), as the change channel names it (docs/console.md, "Live updates"). */
export type Topic = string;

/** Changes closer together than this are read as one: a check-in moves several records at once. */
const settleMs = 250;

/**
 * A stream the service refused (429 TOO_MANY_STREAMS past a credential's streams, docs/api.md, "Console events") is
 * one the browser gives up on: it is asked again after this.
 */
const refusedRetryMs = 30_000;

/**
 * Calls `onChange` with the topics that moved whenever the company's data changes, from the service's change channel
 * (`GET /v1/console/events`, server-sent events); the page reads its data again through the API. The browser
 * reconnects by itself after a cut, and the hook asks again later for a stream the service refused; on reconnecting,
 * the page reads again (something may have moved meanwhile).
 */
export function useLive(onChange: (topics: Topic[]) => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let pending = new Set<Topic>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let opened = false;
    const flush = () => {
      const topics = [...pending];
      pending = new Set();
      timer = undefined;
      latest.current(topics);
    };
    const hear = (topics: Topic[]) => {
      for (const topic of topics) pending.add(topic);
      timer ??= setTimeout(flush, settleMs);
    };
    const connect = () => {
      const stream = new EventSource('/v1/console/events');
      source = stream;
      stream.addEventListener('change', (event) => {
        try {
          const data = JSON.parse((event as MessageEvent<string>).data) as { topics?: unknown };
          hear(Array.isArray(data.topics) ? data.topics.filter((t): t is string => typeof t === 'string') : []);
        } catch {
          hear([]);
        }
      });
      stream.addEventListener('open', () => {
        if (opened) hear([]);
        opened = true;
      });
      stream.addEventListener('error', () => {
        if (stream.readyState === EventSource.CLOSED) retry = setTimeout(connect, refusedRetryMs);
      });
    };
    connect();
    return () => {
      clearTimeout(timer);
      clearTimeout(retry);
      source?.close();
    };
  }, []);
}
