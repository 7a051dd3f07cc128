import {
  Component,
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { type Api, ApiProblem, createClient, unreachable } from '../api.ts';
import { applyBrand } from '../brand.ts';
import { kioskLanguage, type Lang } from '../i18n/languages.ts';
import { type Shell, ShellContext } from './context.ts';
import { Layout } from './Layout.tsx';
import { homeOf, publicRoutes, routeOf, signInPath } from './pages.ts';
import { matchPath, navigate, useLocation } from './router.ts';
import { type ConsoleSession, consoleLanguage } from './session.ts';
import { shellWords } from './shell-words.ts';

const chosenLangKey = 'portaria.console.lang';

const loaded = new Map<string, LazyExoticComponent<ComponentType>>();
/** A page's component, loaded once (its chunk) and kept. */
function pageComponent(key: string, load: () => Promise<{ default: ComponentType }>) {
  let component = loaded.get(key);
  if (!component) {
    component = lazy(load);
    loaded.set(key, component);
  }
  return component;
}

/**
 * The console's client: a call the service answers UNAUTHORIZED means the session ended (expired, signed out
 * elsewhere, the person deactivated), and the console goes back to signing in.
 */
function sessionEndsOn401(api: Api, ended: () => void): Api {
  const watch = async <T,>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      if (error instanceof ApiProblem && error.type === 'UNAUTHORIZED') ended();
      throw error;
    }
  };
  return {
    get: (path) => watch(api.get(path)),
    optional: (path) => watch(api.optional(path)),
    send: (method, path, body) => watch(api.send(method, path, body)),
    download: (path) => watch(api.download(path)),
  };
}

/** A page that failed to load (its chunk, after a new build) or to render says so instead of a blank screen. */
class PageBoundary extends Component<{ failed: string; children: ReactNode }, { error: boolean }> {
  override state = { error: false };
  static getDerivedStateFromError() {
    return { error: true };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.props.failed}</p> : this.props.children;
  }
}

/**
 * The console: who is signed in (`GET /v1/account/me`), the language, and the page at the address; signed out, only
 * the pages for signing in (docs/console.md).
 */
export function Console() {
  const { path, search } = useLocation();
  /** undefined: nobody is signed in; null: not known yet. */
  const [session, setSession] = useState<ConsoleSession | undefined | null>(null);
  const [unreached, setUnreached] = useState(false);
  const [chosen, setChosen] = useState(() => localStorage.getItem(chosenLangKey));
  const lang = consoleLanguage(
    { asked: search.get('lang'), chosen, account: session?.account.lang, browser: navigator.language },
    kioskLanguage,
  );
  const words = shellWords[lang];

  const csrfToken = session?.csrfToken;
  const api = useMemo(
    () =>
      sessionEndsOn401(
        createClient({ headers: csrfToken ? { 'x-csrf-token': csrfToken } : {}, credentials: 'same-origin' }),
        () => setSession(undefined),
      ),
    [csrfToken],
  );

  const refreshSession = useCallback(async () => {
    try {
      const me = await createClient({ headers: {}, credentials: 'same-origin' }).get<ConsoleSession>('/v1/account/me');
      setUnreached(false);
      setSession(me);
    } catch (error) {
      if (error instanceof ApiProblem && error.type === unreachable) setUnreached(true);
      else setSession(undefined);
    }
  }, []);
  useEffect(() => {
    void refreshSession();
  }, [refreshSession]);

  const setLang = useCallback((next: Lang) => {
    localStorage.setItem(chosenLangKey, next);
    setChosen(next);
    // The address's `?lang=` would outrank the choice: it goes.
    const url = new URL(location.href);
    if (url.searchParams.has('lang')) {
      url.searchParams.delete('lang');
      navigate(url.pathname + url.search, true);
    }
  }, []);

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  useEffect(() => applyBrand(session?.company.brandColor), [session?.company.brandColor]);

  const publicRoute = publicRoutes
    .map((route) => ({ route, params: matchPath(route.path, path) }))
    .find((found) => found.params);
  const signedIn = session ? routeOf(path) : undefined;
  const shell: Shell = {
    api,
    session: session ?? undefined,
    lang,
    setLang,
    navigate,
    params: publicRoute?.params ?? signedIn?.params ?? {},
    refreshSession,
  };

  const signInRoute = publicRoutes.some((route) => route.path === signInPath);
  useEffect(() => {
    if (session === undefined && !publicRoute && signInRoute) {
      const next = path === '/console' ? '' : `?next=${encodeURIComponent(path + location.search)}`;
      navigate(`${signInPath}${next}`, true);
    }
    if (session && path === '/console') {
      const home = homeOf(session);
      if (home) navigate(home.path, true);
    }
  }, [session, publicRoute, signInRoute, path]);

  let content: ReactNode;
  if (publicRoute) {
    const Page = pageComponent(publicRoute.route.path, publicRoute.route.load);
    content = (
      <main id="content" className="console-public">
        <PageBoundary failed={words.failed}>
          <Suspense fallback={<p role="status">{words.loading}</p>}>
            <Page />
          </Suspense>
        </PageBoundary>
      </main>
    );
  } else if (session === null || (session === undefined && signInRoute)) {
    content = (
      <main id="content" className="console-public">
        <p role={unreached ? 'alert' : 'status'}>{unreached ? words.unreachable : words.loading}</p>
      </main>
    );
  } else if (session === undefined) {
    content = (
      <main id="content" className="console-public">
        <p role="alert">{words.signInMissing}</p>
      </main>
    );
  } else {
    const allowed = signedIn?.page.roles.includes(session.account.role);
    const Page = signedIn && allowed ? pageComponent(signedIn.page.id, signedIn.page.load) : undefined;
    const title = signedIn?.page.title?.[lang];
    content = (
      <Layout session={session} current={signedIn?.page.id} title={title}>
        {Page ? (
          <PageBoundary failed={words.failed}>
            <Suspense fallback={<p role="status">{words.loading}</p>}>
              <Page />
            </Suspense>
          </PageBoundary>
        ) : (
          <p role="alert">{signedIn ? words.forbidden : path === '/console' ? words.loading : words.notFound}</p>
        )}
      </Layout>
    );
  }
  return <ShellContext.Provider value={shell}>{content}</ShellContext.Provider>;
}
