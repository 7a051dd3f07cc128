/**
 * Seeds a Portaria data folder straight into SQLite: one company, its hosts, invitees and visits, through the real
 * migrations. Big transactions, prepared statements, the secondary indexes dropped during the load and created
 * again from their own SQL afterwards (sorting once is far cheaper than 2,000,000 random index inserts), so the
 * file ends with exactly the schema the migrations make.
 *
 *   node --import tsx bench/seed.ts --dir bench/.work/large --hosts 100000 --invitees 500000 --visits 2000000
 */
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { hashKey } from '../local-api/credentials/keys.ts';
import { loadMigrations, migrate, sqliteDb } from '../local-api/store/db.ts';

/** Bumped whenever the generated rows change shape, so a stale database in bench/.work is seeded again. */
const seedVersion = 2;

export interface SeedCounts {
  hosts: number;
  invitees: number;
  visits: number;
}

/**
 * `history`: years of past visits and invitations, for the list queries at scale.
 * `fresh`: today's reception, every invitee still expected and every visit still inside, for the hot endpoints.
 */
export type SeedProfile = 'history' | 'fresh';

export interface SeededData {
  dir: string;
  companyId: string;
  apiKey: string;
  counts: SeedCounts;
  profile: SeedProfile;
  /** Values the list-query benchmarks ask for; chosen so that each matches as many rows at every scale. */
  probes: { hostName: string; inviteeName: string; expectedAfterSeconds: number };
}

interface Manifest extends SeededData {
  seedVersion: number;
  schema: string[];
  seconds: number;
}

export const databaseFile = (dir: string) => join(dir, 'portaria.db');
const manifestFile = (dir: string) => join(dir, 'seed.json');

/** The migrations by name and content: an index added to a migration that has not shipped also means reseeding. */
const schemaVersion = () =>
  loadMigrations().map((m) => `${m.version}_${m.name}:${hash('sha256', m.sql, 'hex').slice(0, 16)}`);

const dayMs = 86_400_000;
/** Seeded times are relative to a fixed instant, so two seedings of the same counts are the same data. */
const baseTime = Date.UTC(2025, 5, 2, 12, 0, 0);
/** The last day of a `history` seed's visits, in its company's zone: where the console's spans of days end. */
export const lastSeededDay = '2025-06-02';
const historyMs = 730 * dayMs;

const firstNames = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fábio', 'Gabriela', 'Heitor', 'Isabel', 'João'];
const lastNames = ['Almeida', 'Barbosa', 'Cardoso', 'Duarte', 'Esteves', 'Ferreira', 'Gomes', 'Henriques', 'Lima'];

/** A person's name that is distinct for each k (a counter keeps the 90 first×last combinations apart). */
function personName(k: number): string {
  const first = firstNames[k % firstNames.length];
  const last = lastNames[Math.floor(k / firstNames.length) % lastNames.length];
  return `${first} ${last} ${Math.floor(k / (firstNames.length * lastNames.length)) + 1}`;
}

/** mulberry32: small, fast and seeded, so the data (and the ids the benchmarks use) repeat from run to run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex8 = (random: () => number) =>
  Math.floor(random() * 4294967296)
    .toString(16)
    .padStart(8, '0');

function uuid(random: () => number): string {
  const h = hex8(random) + hex8(random) + hex8(random) + hex8(random);
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
}

/** Distinct positive int32 card numbers: multiplication by an odd constant is a bijection modulo 2^31. */
const cardNumber = (i: number) => Number((BigInt(i + 1) * 2654435761n) % 2147483648n) || 1;

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(manifestFile(dir), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The seeded folder, reused when it holds the same counts, profile, seed and schema version. */
export function reusableSeed(dir: string, counts: SeedCounts, profile: SeedProfile): SeededData | undefined {
  const manifest = readManifest(dir);
  if (!manifest || !existsSync(databaseFile(dir))) return undefined;
  const same =
    manifest.seedVersion === seedVersion &&
    manifest.profile === profile &&
    JSON.stringify(manifest.counts) === JSON.stringify(counts) &&
    JSON.stringify(manifest.schema) === JSON.stringify(schemaVersion());
  return same ? manifest : undefined;
}

export async function seed(
  dir: string,
  counts: SeedCounts,
  profile: SeedProfile,
): Promise<SeededData & { seconds: number }> {
  const started = performance.now();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const db = new Database(databaseFile(dir));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  await migrate(sqliteDb(db), loadMigrations());

  const secondary = db
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('hosts', 'invitees', 'visits')`,
    )
    .all() as { name: string; sql: string }[];
  for (const index of secondary) db.exec(`DROP INDEX ${index.name}`);

  const random = seededRandom(counts.hosts * 31 + counts.invitees * 7 + counts.visits);
  const companyId = 'bench0000000000000000000000000001';
  const apiKey = 'prt_bench_key_for_local_measurements_only';
  const timezone = 'America/Sao_Paulo';
  db.prepare(
    `INSERT INTO companies (id, createdAt, updatedAt, name, trialUntil, timezone) VALUES (?, ?, ?, 'Bench', ?, ?)`,
  ).run(companyId, baseTime - historyMs, baseTime - historyMs, baseTime + 30 * dayMs, timezone);
  db.prepare(
    "INSERT INTO credentials (id, companyId, role, label, keyHash, createdAt) VALUES ('bench', ?, 'admin', 'Bench', ?, ?)",
  ).run(companyId, hashKey(apiKey), baseTime - historyMs);

  const hostIds = insertHosts(db, companyId, counts.hosts, random);
  const inviteeIds = insertInvitees(db, companyId, counts.invitees, hostIds, profile, random);
  const lobby = insertLobby(db, companyId);
  insertVisits(db, companyId, counts.visits, hostIds, inviteeIds, lobby, profile, random);

  for (const index of secondary) db.exec(index.sql);
  db.pragma('journal_mode = WAL');
  db.close();

  const data: SeededData = {
    dir: resolve(dir),
    companyId,
    apiKey,
    counts,
    profile,
    probes: {
      hostName: personName(0),
      inviteeName: personName(1_000_000),
      expectedAfterSeconds: Math.floor((baseTime - historyMs / 2) / 1000),
    },
  };
  const seconds = (performance.now() - started) / 1000;
  const manifest: Manifest = { ...data, seedVersion, schema: schemaVersion(), seconds };
  writeFileSync(manifestFile(dir), `${JSON.stringify(manifest, null, 2)}\n`);
  return { ...data, seconds };
}

/** Inserts rows in transactions of `batch`, calling `row(i)` for the parameters of the i-th. */
function bulkInsert(db: Database.Database, sql: string, count: number, row: (i: number) => unknown[]): void {
  const statement = db.prepare(sql);
  const batch = 50_000;
  const insertBatch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) statement.run(row(i));
  });
  for (let from = 0; from < count; from += batch) insertBatch(from, Math.min(count, from + batch));
}

function insertHosts(db: Database.Database, companyId: string, count: number, random: () => number): string[] {
  const ids = Array.from({ length: count }, () => hex8(random) + hex8(random) + hex8(random) + hex8(random));
  const sectors = ['Financeiro', 'Jurídico', 'TI', 'Compras', 'Diretoria', 'Recepção'];
  bulkInsert(
    db,
    `INSERT INTO hosts (id, companyId, createdAt, updatedAt, name, email, role, isActive, sector, phone, countryCode)
     VALUES (?, ?, ?, ?, ?, ?, 'HOST', 1, ?, ?, '+55')`,
    count,
    (i) => {
      const at = baseTime - historyMs + Math.floor((i / count) * historyMs);
      return [ids[i], companyId, at, at, personName(i), `host${i}@example.com`, sectors[i % 6], `1199${i}`];
    },
  );
  return ids;
}

function insertInvitees(
  db: Database.Database,
  companyId: string,
  count: number,
  hostIds: string[],
  profile: SeedProfile,
  random: () => number,
): string[] {
  const ids = Array.from({ length: count }, () => uuid(random));
  bulkInsert(
    db,
    `INSERT INTO invitees (id, companyId, createdAt, updatedAt, hostId, expectedAt, status, name, email, phone,
       company, cardNumber)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Visiting Ltd', ?)`,
    count,
    (i) => {
      // History: expected times spread over two years and a month ahead; fresh: all expected today.
      const expectedAt =
        profile === 'fresh'
          ? baseTime + Math.floor(random() * 8 * 3_600_000)
          : baseTime - historyMs + Math.floor((i / count) * (historyMs + 30 * dayMs));
      const draw = random();
      const status =
        profile === 'fresh' || expectedAt > baseTime || draw < 0.15 ? 'confirmed' : draw < 0.2 ? 'canceled' : 'arrived';
      // Each name is shared by two invitees, at every scale, so `name ==` matches as many rows everywhere.
      const name = personName(1_000_000 + Math.floor(i / 2));
      return [
        ids[i],
        companyId,
        expectedAt - dayMs,
        expectedAt - dayMs,
        hostIds[i % hostIds.length],
        expectedAt,
        status,
        name,
        `guest${i}@example.org`,
        `2198${i}`,
        cardNumber(i),
      ];
    },
  );
  return ids;
}

/** The reception's visitor types and kiosks (a hub's kiosk devices: `sync` credentials), which visits name. */
interface Lobby {
  visitorTypeIds: string[];
  kioskIds: string[];
}

function insertLobby(db: Database.Database, companyId: string): Lobby {
  const at = baseTime - historyMs;
  const kinds = ['guest', 'interview', 'contractor', 'delivery'] as const;
  const type = db.prepare(
    `INSERT INTO visitor_types (id, companyId, createdAt, updatedAt, kind, name, badgeLabel, sort)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const visitorTypeIds = kinds.map((kind, i) => {
    const id = `benchtype${i}`;
    type.run(id, companyId, at, at, kind, kind, kind.toUpperCase(), i);
    return id;
  });
  const kiosk = db.prepare(
    "INSERT INTO credentials (id, companyId, role, label, keyHash, createdAt) VALUES (?, ?, 'sync', ?, ?, ?)",
  );
  const kioskIds = ['Lobby A', 'Lobby B', 'Garage'].map((label, i) => {
    const id = `benchkiosk${i}`;
    kiosk.run(id, companyId, label, hashKey(`prt_bench_kiosk_${i}`), at);
    return id;
  });
  return { visitorTypeIds, kioskIds };
}

/**
 * Visits, each with its visitor record's id: every third visit is by one of a pool of regulars (a hundredth of the
 * visits' count), who come back all through the history; the others are each a visitor's only visit.
 */
function insertVisits(
  db: Database.Database,
  companyId: string,
  count: number,
  hostIds: string[],
  inviteeIds: string[],
  lobby: Lobby,
  profile: SeedProfile,
  random: () => number,
): void {
  const regulars = Math.max(1, Math.floor(count / 100));
  bulkInsert(
    db,
    `INSERT INTO visits (id, companyId, createdAt, updatedAt, hostId, inviteeId, name, email, phone, document,
       cardNumber, checkinAt, checkinType, checkoutAt, checkoutType, isInsideCompany, visitorId, visitorTypeId,
       checkinByIpadId)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'IPAD', ?, ?, ?, ?, ?, ?)`,
    count,
    (i) => {
      // History: check-ins in order over two years, the last few still inside; fresh: everyone still inside.
      const checkinAt =
        profile === 'fresh'
          ? baseTime - Math.floor(random() * 3_600_000)
          : baseTime - historyMs + Math.floor((i / count) * historyMs);
      const inside = profile === 'fresh' || i >= count - Math.ceil(count / 1000);
      const checkoutAt = inside ? null : checkinAt + 1_800_000 + Math.floor(random() * 4 * 3_600_000);
      const inviteeId =
        profile === 'history' && inviteeIds.length > 0 && i % 4 === 0 ? inviteeIds[i % inviteeIds.length] : null;
      return [
        uuid(random),
        companyId,
        checkinAt,
        checkoutAt ?? checkinAt,
        hostIds[i % hostIds.length],
        inviteeId,
        personName(2_000_000 + i),
        `visitor${i}@example.net`,
        `3197${i}`,
        String(10_000_000 + i),
        String(cardNumber(inviteeIds.length + i)),
        checkinAt,
        checkoutAt,
        inside ? null : 'IPAD',
        inside ? 1 : 0,
        i % 3 === 0 ? `regular${Math.floor(random() * regulars)}` : `visitor${i}`,
        lobby.visitorTypeIds[i % lobby.visitorTypeIds.length],
        i % 10 === 9 ? null : lobby.kioskIds[i % lobby.kioskIds.length],
      ];
    },
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      hosts: { type: 'string' },
      invitees: { type: 'string' },
      visits: { type: 'string' },
      profile: { type: 'string', default: 'history' },
    },
  });
  if (!values.dir) throw new Error('seed needs --dir');
  const counts = {
    hosts: Number(values.hosts ?? 1000),
    invitees: Number(values.invitees ?? 5000),
    visits: Number(values.visits ?? 20000),
  };
  const result = await seed(values.dir, counts, values.profile === 'fresh' ? 'fresh' : 'history');
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
