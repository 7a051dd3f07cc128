/** An answer of the service that is not a success, by its error code (`{ "type": CODE }`). */
export class ApiProblem extends Error {
  constructor(
    readonly type: string,
    readonly status: number,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(type);
  }
}

/** The service could not be reached at all (it is local: the process stopped, or is restarting). */
export const unreachable = 'SERVICE_UNREACHABLE';

export interface Api {
  get<T>(path: string): Promise<T>;
  /** GET of an endpoint this version of the service may not have: undefined when it answers 404. */
  optional<T>(path: string): Promise<T | undefined>;
  send<T>(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** GET of a file (a CSV export): its bytes, for the page to save. */
  download(path: string): Promise<Blob>;
}

const timeoutMs = 20_000;

/** How a client proves who it is, and whom it tells how calls went. */
export interface ClientOptions {
  /** Headers every call carries (the key; or the console's CSRF token, its session being a cookie). */
  headers: Record<string, string>;
  /** Whether the browser sends its cookies: only the console's session needs them. */
  credentials: RequestCredentials;
  /** Hears whether the service answered at all. */
  onReach?: (reached: boolean) => void;
}

/**
 * A small client of the service. A call that cannot reach the service fails with SERVICE_UNREACHABLE, so every
 * screen can say so in words; an answer that is not a success fails with its error code.
 */
export function createClient(options: ClientOptions): Api {
  const onReach = options.onReach ?? (() => undefined);
  async function call<T>(method: string, path: string, body?: unknown, as: 'json' | 'blob' = 'json'): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          ...options.headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        cache: 'no-store',
        credentials: options.credentials,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      onReach(false);
      throw new ApiProblem(unreachable, 0);
    }
    onReach(true);
    if (as === 'blob' && response.ok) return (await response.blob()) as T;
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const { type, ...extra } = (parsed ?? {}) as { type?: string };
      throw new ApiProblem(type ?? 'INTERNAL', response.status, extra);
    }
    return parsed as T;
  }
  return {
    get: (path) => call('GET', path),
    async optional(path) {
      try {
        return await call('GET', path);
      } catch (error) {
        if (error instanceof ApiProblem && error.status === 404) return undefined;
        throw error;
      }
    },
    send: (method, path, body) => call(method, path, body),
    download: (path) => call('GET', path, undefined, 'blob'),
  };
}

/** The kiosk's client: every call carries the device key, and no cookie. */
export function createApi(apiKey: string, onReach: (reached: boolean) => void = () => undefined): Api {
  return createClient({ headers: { authorization: `Bearer ${apiKey}` }, credentials: 'omit', onReach });
}

/** Repeats a call that could not reach the service (an idempotent one: its id makes a repeat harmless). */
export async function withRetries<T>(attempt: () => Promise<T>, tries = 3, pauseMs = 700): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.type !== unreachable || i >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs * i));
    }
  }
}

/** `?queryKey=…&queryOp=…&queryValue=…&limit=…` of the list endpoints. */
export function listQuery(key: string, op: '==' | '>=' | '<=' | '<' | '>', value: string | number, limit = 1000) {
  const params = new URLSearchParams({ queryKey: key, queryOp: op, queryValue: String(value), limit: String(limit) });
  return `?${params.toString()}`;
}
