import { type Context, runtimePart } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { prepared } from '../store/rows.ts';

/*
 * The console's live channel (docs/console.md, "Live updates"): a console page is told which of its company's
 * records moved, and refetches them through the API with its own scope. It rides on the sync pokes
 * (sync/pokes.ts): the change feed already notices every write to the company's records, from any process of a hub
 * (PostgreSQL's NOTIFY) or from this one (SQLite), and coalesces bursts. One poke subscription per company fans out
 * to the company's console streams; what moved is read once per poke from the feed itself (the tables written since
 * the last poke), so a stream is told topics, never rows.
 */

/** What a console page refetches by. */
export const consoleTopics = ['visits', 'invitees', 'meetings', 'hosts', 'settings'] as const;
export type ConsoleTopic = (typeof consoleTopics)[number];

/**
 * The topic of each table of the change feed (sync/tables.ts). A table missing here (one added to the feed later)
 * is told as `settings`, the widest refetch, rather than not at all.
 */
const tableTopics: Readonly<Record<string, ConsoleTopic | null>> = {
  visits: 'visits',
  // A host's reply (opened, answered) changes what Today shows of the visit.
  host_replies: 'visits',
  invitees: 'invitees',
  meetings: 'meetings',
  hosts: 'hosts',
  companies: 'settings',
  access_configs: 'settings',
  privacy_settings: 'settings',
  custom_fields: 'settings',
  visitor_types: 'settings',
  blocklist: 'settings',
  notification_settings: 'settings',
  // An erasure's rows are deleted in the same transaction, each table telling its own topic.
  privacy_erasures: null,
};

/** The topics of the feed's tables written, in `consoleTopics` order. Pure. */
export function topicsOfTables(tables: readonly string[]): ConsoleTopic[] {
  const moved = new Set(tables.map((table) => (table in tableTopics ? tableTopics[table] : 'settings')));
  return consoleTopics.filter((topic) => moved.has(topic));
}

export interface ConsoleEventLimits {
  /** Streams of one credential (a person's session, an API key): a person's tabs. Past it, TOO_MANY_STREAMS. */
  perCredential: number;
  /** Streams of one company in this process. Past it, TOO_MANY_STREAMS. */
  perCompany: number;
}

export const consoleEventLimits: ConsoleEventLimits = { perCredential: 5, perCompany: 500 };

/** One console page's stream. */
export interface ConsoleSubscriber {
  credentialId: string;
  changed(topics: readonly ConsoleTopic[]): void;
  end(): void;
}

interface CompanyStreams {
  subscribers: ConsoleSubscriber[];
  /** The feed's position last told (null until read): the next poke reads what was written after it. */
  seq: number | null;
  reading: Promise<void>;
  unsubscribe: () => void;
}

export interface ConsoleChannel {
  /** Registers a stream, or throws TOO_MANY_STREAMS; answers the function that removes it. */
  subscribe(caller: Caller, subscriber: ConsoleSubscriber): () => void;
}

/** The feed's position now: the company's newest entry (the end of one indexed range). */
async function latestSeq(ctx: Context, companyId: string): Promise<number> {
  const row = (await prepared(ctx.db, 'SELECT MAX(seq) AS seq FROM sync_changes WHERE companyId = ?').get(
    companyId,
  )) as { seq: number | string | null };
  return Number(row.seq ?? 0);
}

/** The tables of the company's feed written after `seq` (one indexed range), and the feed's position now. */
async function writtenSince(ctx: Context, companyId: string, seq: number): Promise<{ tables: string[]; seq: number }> {
  const rows = (await prepared(
    ctx.db,
    'SELECT tableName, MAX(seq) AS seq FROM sync_changes WHERE companyId = ? AND seq > ? GROUP BY tableName',
  ).all(companyId, seq)) as { tableName: string; seq: number | string }[];
  return { tables: rows.map((row) => row.tableName), seq: Math.max(seq, ...rows.map((row) => Number(row.seq))) };
}

function createConsoleChannel(ctx: Context, limits: ConsoleEventLimits): ConsoleChannel {
  const companies = new Map<string, CompanyStreams>();

  /** Reads of the feed run one after another, so each starts where the previous ended. */
  const read = (streams: CompanyStreams, work: () => Promise<void>) => {
    streams.reading = streams.reading.then(work).catch((error: unknown) => {
      // The next poke reads from the same position: nothing is lost, only late.
      ctx.log.warn({ err: error }, 'console events: cannot read the change feed');
    });
  };

  const poked = (companyId: string, streams: CompanyStreams) =>
    read(streams, async () => {
      if (streams.seq === null) streams.seq = await latestSeq(ctx, companyId);
      const written = await writtenSince(ctx, companyId, streams.seq);
      streams.seq = written.seq;
      const topics = topicsOfTables(written.tables);
      if (topics.length > 0) for (const subscriber of streams.subscribers) subscriber.changed(topics);
    });

  /** The company's first stream: its position in the feed, and the one poke subscription its streams share. */
  const open = (companyId: string): CompanyStreams => {
    const streams: CompanyStreams = { subscribers: [], seq: null, reading: Promise.resolve(), unsubscribe: () => {} };
    // What is written from here on is told.
    read(streams, async () => {
      streams.seq ??= await latestSeq(ctx, companyId);
    });
    let stopping = false;
    streams.unsubscribe = ctx.pokes.subscribe(companyId, {
      kiosk: 'console',
      poke: () => poked(companyId, streams),
      // The service is stopping: every console stream of the company ends.
      end: () => {
        stopping = true;
        if (companies.get(companyId) === streams) companies.delete(companyId);
        for (const subscriber of streams.subscribers) subscriber.end();
      },
    });
    if (!stopping) companies.set(companyId, streams);
    return streams;
  };

  const remove = (companyId: string, subscriber: ConsoleSubscriber) => {
    const streams = companies.get(companyId);
    if (!streams?.subscribers.includes(subscriber)) return;
    streams.subscribers = streams.subscribers.filter((s) => s !== subscriber);
    if (streams.subscribers.length > 0) return;
    companies.delete(companyId);
    streams.unsubscribe();
  };

  return {
    subscribe(caller, subscriber) {
      const { companyId } = caller;
      const streams = companies.get(companyId) ?? open(companyId);
      const own = streams.subscribers.filter((s) => s.credentialId === subscriber.credentialId).length;
      if (own >= limits.perCredential) throw new ApiError('TOO_MANY_STREAMS', { maxStreams: limits.perCredential });
      if (streams.subscribers.length >= limits.perCompany) {
        throw new ApiError('TOO_MANY_STREAMS', { maxStreams: limits.perCompany });
      }
      // Subscribed while the service stops: the stream ends at once.
      if (companies.get(companyId) !== streams) {
        subscriber.end();
        return () => {};
      }
      streams.subscribers.push(subscriber);
      return () => remove(companyId, subscriber);
    },
  };
}

/**
 * This service's console channel: made as the service opens, with its caps (`limits`), and found afterwards. It
 * subscribes to nothing until a stream opens.
 */
export const consoleChannel = (ctx: Context, limits: ConsoleEventLimits = consoleEventLimits): ConsoleChannel =>
  runtimePart(ctx, 'console-events', () => createConsoleChannel(ctx, limits));
