import type { Request, Response } from 'express';
import { sessionIdOf, sessionLive } from '../accounts/sessions.ts';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { credentialLive } from '../credentials/store.ts';
import { eventText, serveEventStream } from '../http/event-stream.ts';
import { consoleChannel } from './channel.ts';

/** Told first: the stream is open. A page that was disconnected refetches on it (what moved meanwhile is lost). */
const readyEvent = eventText('ready', '{}');

/**
 * GET /v1/console/events: the caller's company's changes as server-sent events, `event: change` with
 * `data: {"topics":[…]}`: which records moved, never their data, whatever the caller's role (a host's page
 * refetches through the API, which scopes it). Refused 429 TOO_MANY_STREAMS past the caps (channel.ts); a heartbeat
 * as the sync pokes have; ended at the heartbeat after the caller's session ends (signed out, idle, expired) or key is
 * revoked.
 */
export function streamConsoleEvents(ctx: Context, caller: Caller, req: Request, res: Response): void {
  serveEventStream(req, res, {
    about: "changes of this company's records",
    first: readyEvent,
    heartbeatMs: ctx.pokes.limits.heartbeatMs,
    subscribe: (stream) =>
      consoleChannel(ctx).subscribe(caller, {
        credentialId: caller.credentialId,
        changed: (topics) => stream.send(eventText('change', JSON.stringify({ topics }))),
        end: stream.end,
      }),
    live: () => {
      const session = sessionIdOf(caller);
      return session === undefined ? credentialLive(ctx, caller.credentialId) : sessionLive(ctx, session);
    },
  });
}
