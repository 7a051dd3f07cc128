import type { Request, Response } from 'express';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { credentialLive } from '../credentials/store.ts';
import { eventText, serveEventStream } from '../http/event-stream.ts';

/** The one event the stream carries: the company's feed moved; pull. Nothing else, no data of any row. */
const pokeEvent = eventText('poke', 'changed');

/**
 * GET /v1/sync/pokes: opens the caller's company's stream, refused 429 TOO_MANY_STREAMS past the company's cap,
 * before anything is sent. The first event is a poke, so a kiosk that subscribes pulls what changed while it was
 * not subscribed. A heartbeat follows every `heartbeatMs` (pokes.ts); a revoked credential's stream ends there, as
 * its next request would be refused.
 */
export function streamPokes(ctx: Context, caller: Caller, clientId: string | undefined, req: Request, res: Response) {
  serveEventStream(req, res, {
    about: "pokes of this company's change feed",
    first: pokeEvent,
    heartbeatMs: ctx.pokes.limits.heartbeatMs,
    subscribe: (stream) =>
      ctx.pokes.subscribe(caller.companyId, {
        // Kiosks that share a credential (the company's key) are told apart by their client ids.
        kiosk: `${caller.credentialId}/${clientId ?? ''}`,
        poke: () => stream.send(pokeEvent),
        end: stream.end,
      }),
    live: () => credentialLive(ctx, caller.credentialId),
  });
}
