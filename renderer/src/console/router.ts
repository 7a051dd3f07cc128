import { type MouseEvent, useEffect, useState } from 'react';

const moved = 'portaria:navigate';

/** Goes to a console path without reloading the page; the browser's Back returns. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(moved));
}

/** The page's path (without a trailing slash) and query. */
const readLocation = () => ({
  path: location.pathname.replace(/\/+$/, '') || '/',
  search: new URLSearchParams(location.search),
});

/** The current path and query, followed through links, Back and Forward. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [current, setCurrent] = useState(readLocation);
  useEffect(() => {
    const update = () => setCurrent(readLocation());
    window.addEventListener('popstate', update);
    window.addEventListener(moved, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(moved, update);
    };
  }, []);
  return current;
}

/**
 * The parameters of `path` if it matches `pattern` (`/console/welcome/:token` against `/console/welcome/abc` →
 * `{ token: 'abc' }`), else undefined. Parameters are one path segment, decoded.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const segment = have[i] ?? '';
    if (part.startsWith(':')) {
      if (!segment) return undefined;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    } else if (part !== segment) return undefined;
  }
  return params;
}

/** A plain click on a link (no modifier, the main button) is the console's to follow; others are the browser's. */
export function followsInPage(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
