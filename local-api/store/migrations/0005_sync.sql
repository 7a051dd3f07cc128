-- Offline-first sync between kiosks and their hub (docs/sync.md). Every service keeps a change feed of its
-- reference data and visits (filled by triggers that local-api/sync/feed.ts generates from a list of tables);
-- a kiosk also keeps an outbox of what it did, pushed to the hub, and the hub remembers what each kiosk pushed.

-- This service's sync identity and, on a kiosk, its upstream and its progress: a single row.
CREATE TABLE sync_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- Names this service's change feed (in cursors) and its hybrid logical clock.
  nodeId TEXT NOT NULL,
  -- The kiosk's name towards the hub; replaced when the hub no longer knows the kiosk's mutations.
  clientId TEXT NOT NULL,
  hlc TEXT NOT NULL,
  -- Changes up to this sequence number may have been pruned: older cursors are answered with a full resync.
  horizon INTEGER NOT NULL DEFAULT 0,
  upstreamUrl TEXT,
  -- Sealed with the device key.
  upstreamKey TEXT,
  -- The hub company the upstream key belongs to, learned from the hub's first answer.
  companyId TEXT,
  cursor TEXT,
  resyncing INTEGER NOT NULL DEFAULT 0,
  lastSuccessAt INTEGER,
  lastError TEXT,
  lastErrorAt INTEGER,
  rejected INTEGER NOT NULL DEFAULT 0,
  clockSkewMs INTEGER
) STRICT;

-- The change feed, compacted: one entry per row, moved to a new sequence number whenever the row changes.
CREATE TABLE sync_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  companyId TEXT NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE UNIQUE INDEX sync_changes_row ON sync_changes (tableName, rowKey);
CREATE INDEX sync_changes_feed ON sync_changes (companyId, seq);
CREATE INDEX sync_changes_tombstones ON sync_changes (seq) WHERE deleted = 1;

-- Kiosk: mutations not yet confirmed by the hub, written in the transaction of the change they describe.
CREATE TABLE sync_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  companyId TEXT NOT NULL,
  name TEXT NOT NULL,
  args TEXT NOT NULL,
  hlc TEXT NOT NULL,
  createdAt INTEGER NOT NULL
) STRICT;
CREATE INDEX sync_outbox_company ON sync_outbox (companyId, id);

-- Kiosk: the rows each pending mutation concerns; the pull leaves them alone until the hub has the mutation.
CREATE TABLE sync_outbox_rows (
  mutationId INTEGER NOT NULL REFERENCES sync_outbox (id) ON DELETE CASCADE,
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  PRIMARY KEY (tableName, rowKey, mutationId)
) STRICT, WITHOUT ROWID;
CREATE INDEX sync_outbox_rows_mutation ON sync_outbox_rows (mutationId);

-- Kiosk: the rows seen during a full resync; what the hub no longer has is removed at its end.
CREATE TABLE sync_resync_seen (
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  PRIMARY KEY (tableName, rowKey)
) STRICT, WITHOUT ROWID;

-- Hub: the last mutation applied for each kiosk, so a batch sent again applies nothing twice.
CREATE TABLE sync_clients (
  companyId TEXT NOT NULL,
  clientId TEXT NOT NULL,
  lastMutationId INTEGER NOT NULL,
  -- The timestamp of that mutation: an id already seen arriving with a later one is not a retry but a kiosk whose
  -- numbering went back (its database restored from a backup).
  lastMutationHlc TEXT NOT NULL DEFAULT '',
  applied INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  createdAt INTEGER NOT NULL,
  lastPushAt INTEGER NOT NULL,
  PRIMARY KEY (companyId, clientId)
) STRICT;

-- Hub: mutations it could not apply, kept whole so nothing a kiosk recorded is lost.
CREATE TABLE sync_rejections (
  id INTEGER PRIMARY KEY,
  companyId TEXT NOT NULL,
  clientId TEXT NOT NULL,
  mutationId INTEGER NOT NULL,
  name TEXT NOT NULL,
  args TEXT NOT NULL,
  hlc TEXT NOT NULL,
  type TEXT NOT NULL,
  createdAt INTEGER NOT NULL
) STRICT;
CREATE INDEX sync_rejections_company ON sync_rejections (companyId, createdAt);

-- Last-writer-wins registers: the hybrid logical clock of the write that holds a field (a visit's authorization).
CREATE TABLE sync_registers (
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  register TEXT NOT NULL,
  hlc TEXT NOT NULL,
  PRIMARY KEY (tableName, rowKey, register)
) STRICT, WITHOUT ROWID;
