import { createHash, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express, { type Request, type Response } from 'express';
import { deriveAesKey, verifyQrCode } from '../access/qr.ts';
import type { Clock } from '../context.ts';
import {
  deliveryHeader,
  eventHeader,
  signatureHeader,
  signatureMatches,
  timestampHeader,
} from '../webhooks/signature.ts';

/*
 * The reference gate: what a turnstile controller does with Portaria, small enough to read in one sitting.
 * It takes the kiosk's post-check-in callbacks (HTTP Basic), verifies QR payloads, optionally takes signed
 * webhooks, and prints one line per decision. Integrators run it to try their setup; our tests run it as the peer.
 */

export interface GateOptions {
  aesKey: string;
  username: string;
  password: string;
  /** Dynamic codes are TOTP (the configuration's `totpEnabled`); otherwise AES. Static codes pass in both. */
  totp?: boolean;
  /** Receive webhooks at POST /webhook, checking their signatures with this secret. */
  webhookSecret?: string;
  /** Tolerance for the kiosk's and the gate's clocks disagreeing. */
  leewayMs?: number;
  clock?: Clock;
  print?: (line: string) => void;
  /**
   * Where the idempotency keys seen are kept (`<dataDir>/gate.db`), so a delivery repeated after a restart is
   * still recognised; in memory only when absent (tests of a single run).
   */
  dataDir?: string;
  /** Keys kept per kind (callbacks, webhooks), the oldest forgotten first. */
  maxKeys?: number;
}

/** Enough for weeks of a busy entrance: a sender gives up retrying a delivery long before it is forgotten. */
export const defaultMaxKeys = 100_000;

/** Deliveries shown by GET /received, per kind (the newest). */
const shownDeliveries = 1_000;

interface Received {
  key: string;
  receivedAt: string;
  body: unknown;
  /** The headers a receiver acts on, kept so integrators (and tests) can check them. */
  headers: Record<string, string | undefined>;
}

const keptHeaders = ['content-type', 'user-agent', eventHeader, signatureHeader, timestampHeader];

type DeliveryKind = 'callback' | 'webhook';

/**
 * The keys seen, in SQLite: only the keys and when they came (never a body: those carry the visitor's data), at
 * most `maxKeys` per kind.
 */
function openSeenKeys(dataDir: string | undefined, maxKeys: number) {
  let db: Database.Database;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    db = new Database(join(dataDir, 'gate.db'));
    db.pragma('journal_mode = WAL');
    // A key is on disk before the 200 that tells the sender to stop.
    db.pragma('synchronous = FULL');
  } else {
    db = new Database(':memory:');
  }
  db.exec(`CREATE TABLE IF NOT EXISTS seen_keys (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    seenAt INTEGER NOT NULL,
    UNIQUE (kind, key)
  ) STRICT`);
  const insert = db.prepare('INSERT INTO seen_keys (kind, key, seenAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const prune = db.prepare(
    `DELETE FROM seen_keys WHERE kind = :kind AND seq <= (
       SELECT seq FROM seen_keys WHERE kind = :kind ORDER BY seq DESC LIMIT 1 OFFSET :keep)`,
  );
  const remember = db.transaction((kind: DeliveryKind, key: string, at: number): boolean => {
    if (insert.run(kind, key, at).changes === 0) return false;
    prune.run({ kind, keep: maxKeys });
    return true;
  });
  return {
    /** True the first time a key is seen. */
    remember: (kind: DeliveryKind, key: string, at: number) => remember.immediate(kind, key, at) as boolean,
    close: () => db.close(),
  };
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time comparison of the Basic credentials (hashed first so lengths do not leak). */
function credentialsMatch(header: string | undefined, username: string, password: string): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const presented = digest(Buffer.from(match[1], 'base64').toString('utf8'));
  return timingSafeEqual(presented, digest(`${username}:${password}`));
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Text from a request, made safe for one terminal line (no control characters, bounded length). */
const printable = (value: unknown): string =>
  String(value)
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 120);

/** `at` for tests and dry runs: Unix milliseconds or ISO text; the gate's clock when absent. */
function instantOf(value: unknown, clock: Clock): number | undefined {
  if (value === undefined || value === null) return clock.now();
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

export interface Gate {
  app: express.Express;
  /** Closes the store of keys. */
  close(): void;
}

export function createGateApp(options: GateOptions): Gate {
  const key = deriveAesKey(options.aesKey);
  const clock = options.clock ?? { now: () => Date.now() };
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const seen = openSeenKeys(options.dataDir, options.maxKeys ?? defaultMaxKeys);
  // The latest deliveries of this run, to show: bounded, and in memory only.
  const recent: Record<DeliveryKind, Received[]> = { callback: [], webhook: [] };
  const counts = { duplicateCallbacks: 0, refusedCallbacks: 0, duplicateWebhooks: 0, refusedWebhooks: 0 };
  const stamp = () => new Date(clock.now()).toISOString();

  /** Keeps the first delivery of each key; later ones (before or after a restart) are answered 200 and counted. */
  function record(kind: DeliveryKind, key: string, req: Request, body: unknown): boolean {
    if (!seen.remember(kind, key, clock.now())) return false;
    const headers = Object.fromEntries(keptHeaders.map((name) => [name, req.get(name)]));
    recent[kind].push({ key, receivedAt: stamp(), body, headers });
    if (recent[kind].length > shownDeliveries) recent[kind].shift();
    return true;
  }

  const app = express();
  app.disable('x-powered-by');
  app.use(express.raw({ type: () => true, limit: '1mb' }));

  app.post('/callback', (req: Request, res: Response) => {
    if (!credentialsMatch(req.headers.authorization, options.username, options.password)) {
      counts.refusedCallbacks++;
      print(`${stamp()} CALLBACK REFUSED wrong credentials`);
      res.status(401).set('WWW-Authenticate', 'Basic realm="gate"').json({ error: 'wrong credentials' });
      return;
    }
    const key = req.get('idempotency-key');
    const body = parseJson(req.body as Buffer) as { event?: unknown; cardNumber?: unknown } | undefined;
    if (!key || typeof body !== 'object' || body === null) {
      print(`${stamp()} CALLBACK REFUSED malformed`);
      res.status(400).json({ error: 'a JSON body and an Idempotency-Key header are required' });
      return;
    }
    const fresh = record('callback', key, req, body);
    if (!fresh) counts.duplicateCallbacks++;
    const shown = `${printable(body.event)} card=${printable(body.cardNumber)} key=${printable(key)}`;
    print(`${stamp()} CALLBACK ${fresh ? 'ACCEPTED' : 'DUPLICATE'} ${shown}`);
    res.json({ received: true, duplicate: !fresh });
  });

  app.post('/verify', (req: Request, res: Response) => {
    const body = parseJson(req.body as Buffer) as { payload?: unknown; at?: unknown } | undefined;
    const at = instantOf(body?.at, clock);
    if (typeof body?.payload !== 'string' || at === undefined) {
      res.status(400).json({ error: 'send {"payload": "<QR text>"} and, optionally, "at" (ms or ISO)' });
      return;
    }
    const result = verifyQrCode(body.payload, {
      key,
      at,
      mode: options.totp ? 'totp' : 'aes',
      leewayMs: options.leewayMs,
    });
    if (result.valid) {
      const until = result.expiresAt === null ? 'static' : `until ${new Date(result.expiresAt).toISOString()}`;
      print(`${stamp()} ALLOW card=${result.cardNumber} ${result.subject} ${result.mode} ${until}`);
      res.json({
        valid: true,
        cardNumber: result.cardNumber,
        reason: null,
        subject: result.subject,
        mode: result.mode,
        expiresAt: result.expiresAt === null ? null : new Date(result.expiresAt).toISOString(),
      });
      return;
    }
    print(`${stamp()} DENY ${result.reason} card=${result.cardNumber ?? '-'}`);
    res.json({ valid: false, cardNumber: result.cardNumber, reason: result.reason });
  });

  app.post('/webhook', (req: Request, res: Response) => {
    const raw = req.body as Buffer;
    const secret = options.webhookSecret;
    if (secret === undefined) {
      res.status(404).json({ error: 'start the gate with --webhook-secret to receive webhooks' });
      return;
    }
    const delivery = req.get(deliveryHeader);
    if (!signatureMatches(secret, raw, req.get(signatureHeader)) || !delivery) {
      counts.refusedWebhooks++;
      print(`${stamp()} WEBHOOK REFUSED bad signature`);
      res.status(401).json({ error: 'bad signature' });
      return;
    }
    const fresh = record('webhook', delivery, req, parseJson(raw));
    if (!fresh) counts.duplicateWebhooks++;
    print(
      `${stamp()} WEBHOOK ${fresh ? 'ACCEPTED' : 'DUPLICATE'} ${printable(req.get(eventHeader))} delivery=${printable(delivery)}`,
    );
    res.json({ received: true, duplicate: !fresh });
  });

  app.get('/received', (_req: Request, res: Response) => {
    res.json({ callbacks: recent.callback, webhooks: recent.webhook, ...counts });
  });

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'POST /callback, POST /verify, POST /webhook, GET /received' });
  });
  return { app, close: seen.close };
}

export interface RunningGate {
  url: string;
  close(): Promise<void>;
}

export async function startGate(options: GateOptions & { port: number; host?: string }): Promise<RunningGate> {
  const gate = createGateApp(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = gate.app.listen(options.port, options.host ?? '127.0.0.1', (error?: Error) =>
      error ? reject(error) : resolve(s),
    );
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => {
          gate.close();
          done();
        });
        server.closeAllConnections();
      }),
  };
}
