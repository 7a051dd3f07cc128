import { z } from 'zod';
import { pinPattern } from '../local-api/kiosk/schema.ts';
import {
  type Channel,
  type Connection,
  channels,
  type ExitKioskResult,
  type PrintBadgeRequest,
  type PrintBadgeResult,
} from '../preload/api.ts';
import { isAppUrl, isTrustedSender, type SenderFrame } from './guards.ts';

/**
 * A badge page's path: absolute within the app (`/badge/…`), without a scheme, host, backslash or control
 * character, so it resolves to the app's origin and nowhere else (checked again after resolution).
 */
const badgePath = z
  .string()
  .max(500)
  .regex(/^\/(?!\/)[\x21-\x7e]*$/)
  .refine((path) => !path.includes('\\'));

/** The arguments each channel takes, as a tuple: anything more, less or else is refused before a handler runs. */
export const ipcArguments = {
  [channels.connection]: z.tuple([]),
  [channels.appVersion]: z.tuple([]),
  [channels.printBadge]: z.tuple([
    z.strictObject({ path: badgePath, copies: z.number().int().min(1).max(10).optional() }),
  ]),
  [channels.exitKiosk]: z.tuple([z.string().regex(pinPattern)]),
} satisfies Record<Channel, z.ZodType>;

export interface IpcHandlers {
  connection(): Connection | Promise<Connection>;
  appVersion(): string;
  printBadge(request: PrintBadgeRequest & { url: string }): Promise<PrintBadgeResult>;
  exitKiosk(pin: string): ExitKioskResult | Promise<ExitKioskResult>;
}

/** Why a message was refused; the renderer sees only the code, never the arguments it sent. */
export class IpcRefused extends Error {
  constructor(readonly code: 'UNTRUSTED_SENDER' | 'INVALID_ARGUMENTS' | 'UNKNOWN_CHANNEL') {
    super(code);
    this.name = 'IpcRefused';
  }
}

/**
 * The one entry point of IPC in the main process: checks the sender (the app's own top frame) and the
 * arguments (the channel's schema), then calls the handler. main/index.ts registers it for exactly the
 * channels of `ipcArguments`.
 */
export function ipcDispatcher(appOrigin: () => string, handlers: IpcHandlers) {
  return async (channel: string, sender: SenderFrame | null | undefined, args: unknown[]): Promise<unknown> => {
    if (!Object.hasOwn(ipcArguments, channel)) throw new IpcRefused('UNKNOWN_CHANNEL');
    const origin = appOrigin();
    if (!isTrustedSender(sender, origin)) throw new IpcRefused('UNTRUSTED_SENDER');
    switch (channel) {
      case channels.connection:
        parse(channel, args);
        return handlers.connection();
      case channels.appVersion:
        parse(channel, args);
        return handlers.appVersion();
      case channels.printBadge: {
        const [request] = parse(channel, args);
        const url = new URL(request.path, origin).href;
        if (!isAppUrl(url, origin)) throw new IpcRefused('INVALID_ARGUMENTS');
        return handlers.printBadge({ ...request, url });
      }
      case channels.exitKiosk: {
        const [pin] = parse(channel, args);
        return handlers.exitKiosk(pin);
      }
      default:
        throw new IpcRefused('UNKNOWN_CHANNEL');
    }
  };
}

function parse<C extends Channel>(channel: C, args: unknown[]): z.infer<(typeof ipcArguments)[C]> {
  const parsed = ipcArguments[channel].safeParse(args);
  if (!parsed.success) throw new IpcRefused('INVALID_ARGUMENTS');
  return parsed.data as z.infer<(typeof ipcArguments)[C]>;
}
