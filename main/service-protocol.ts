import { z } from 'zod';

/**
 * The messages between the shell's main process and the service's process (`main/service-child.ts`), over the
 * child's message channel: Electron's `parentPort` in a utility process, Node's IPC channel under
 * `child_process.fork`. Both sides check what they receive: a message that fits no schema is ignored and logged.
 *
 *   child → main   ready                      the child listens; main may send `start`
 *   main → child   start {dataDir, port, …}   open the data folder, serve on 127.0.0.1:port
 *   child → main   started {url, firstStart?}  or start-failed {message, code}, which main answers with stop
 *   main → child   stop                       close the service (HTTP server, job queue, database), then exit 0
 */
export const toService = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    dataDir: z.string().min(1),
    port: z.number().int().min(0).max(65_535),
    /** The unwrapped device key, base64: handed over here, never on the command line or in the environment. */
    deviceKey: z.base64(),
    /** The name of the company a first start creates (and enrols the kiosk to). */
    companyName: z.string().min(1),
    logLevel: z.string().optional(),
    /** The app's version, which a kiosk reports to its hub (docs/sync.md, "Kiosks"). */
    appVersion: z.string().optional(),
  }),
  z.object({ type: z.literal('stop') }),
]);
export type ToService = z.infer<typeof toService>;

export const fromService = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('started'),
    url: z.url(),
    /** On a first start: the company created, its admin key and first PIN, for the shell to print once. */
    firstStart: z.object({ companyId: z.string(), apiKey: z.string(), pin: z.string().optional() }).optional(),
  }),
  z.object({ type: z.literal('start-failed'), message: z.string(), code: z.string().optional() }),
]);
export type FromService = z.infer<typeof fromService>;
