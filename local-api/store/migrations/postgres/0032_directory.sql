-- The console's visit log, hosts and kiosks (docs/console.md): SQLite's migration of the same number, in
-- PostgreSQL's types.
--
-- The visit log's filters (by host, visitor type, kiosk) read the day's range of one index each, newest first, and
-- page by (checkinAt, rowid): each index ends in checkinAt (PostgreSQL: and in rowid).
-- The span in the log's order with its tie-break, so the planner reads a page without sorting its last rows.
CREATE INDEX visits_log ON visits (companyId, checkinAt, rowid) WHERE deletedAt IS NULL;
CREATE INDEX visits_host_checkin ON visits (companyId, hostId, checkinAt, rowid) WHERE deletedAt IS NULL;
CREATE INDEX visits_type_checkin ON visits (companyId, visitorTypeId, checkinAt, rowid) WHERE deletedAt IS NULL;
CREATE INDEX visits_kiosk_checkin ON visits (companyId, checkinByIpadId, checkinAt, rowid) WHERE deletedAt IS NULL;

-- This device's name in its reports to its hub: unlike the node id, which names its feed, a restore from a backup
-- keeps it (it is the same device).
ALTER TABLE sync_state ADD COLUMN deviceId TEXT;
UPDATE sync_state SET deviceId = nodeId;

-- Hub: the kiosk devices of each company, as each last reported itself on its pulls (docs/sync.md, "Kiosks"), or as a
-- pairing enrolled it before its first pull.
CREATE TABLE kiosk_devices (
  companyId TEXT NOT NULL,
  deviceId TEXT NOT NULL,
  name TEXT,
  -- The sync credential the device pulls with (a pairing's, or one made for it), which names it in the visits it
  -- checks in (`checkinByIpadId`, docs/console.md "Analytics"); null for one that follows with the admin key.
  credentialId TEXT,
  clientId TEXT,
  appVersion TEXT,
  pending BIGINT,
  oldestPendingAt BIGINT,
  clockSkewMs BIGINT,
  enrolledAt BIGINT,
  lastSeenAt BIGINT,
  PRIMARY KEY (companyId, deviceId)
);

-- Hub: pairing codes of fresh kiosks (docs/sync.md, "Pairing"). The code and the device's secret are kept hashed;
-- the credential an admin's claim issued is sealed, and handed to the device that holds the secret once.
CREATE TABLE kiosk_pairings (
  id TEXT PRIMARY KEY,
  deviceId TEXT NOT NULL,
  codeHash TEXT NOT NULL UNIQUE,
  secretHash TEXT NOT NULL,
  createdAt BIGINT NOT NULL,
  expiresAt BIGINT NOT NULL,
  companyId TEXT,
  credentialKey TEXT,
  claimedAt BIGINT,
  deliveredAt BIGINT
);
CREATE INDEX kiosk_pairings_expiry ON kiosk_pairings (expiresAt);

-- Hub: wrong pairing codes tried, per company and window, so that guessing stays slower than the codes expire.
CREATE TABLE kiosk_pairing_guesses (
  companyId TEXT NOT NULL,
  windowStart BIGINT NOT NULL,
  failures BIGINT NOT NULL,
  PRIMARY KEY (companyId, windowStart)
);
