-- The console's visit log, hosts and kiosks (docs/console.md). PostgreSQL's migration of the same number makes the
-- same.
--
-- The visit log's filters (by host, visitor type, kiosk) read the day's range of one index each, newest first, and
-- page by (checkinAt, rowid): each index ends in checkinAt (SQLite appends the rowid itself).
CREATE INDEX visits_host_checkin ON visits (companyId, hostId, checkinAt) WHERE deletedAt IS NULL;
CREATE INDEX visits_type_checkin ON visits (companyId, visitorTypeId, checkinAt) WHERE deletedAt IS NULL;
CREATE INDEX visits_kiosk_checkin ON visits (companyId, checkinByIpadId, checkinAt) WHERE deletedAt IS NULL;

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
  pending INTEGER,
  oldestPendingAt INTEGER,
  clockSkewMs INTEGER,
  enrolledAt INTEGER,
  lastSeenAt INTEGER,
  PRIMARY KEY (companyId, deviceId)
) STRICT;

-- Hub: pairing codes of fresh kiosks (docs/sync.md, "Pairing"). The code and the device's secret are kept hashed;
-- the credential an admin's claim issued is sealed, and handed to the device that holds the secret once.
CREATE TABLE kiosk_pairings (
  id TEXT PRIMARY KEY,
  deviceId TEXT NOT NULL,
  codeHash TEXT NOT NULL UNIQUE,
  secretHash TEXT NOT NULL,
  createdAt INTEGER NOT NULL,
  expiresAt INTEGER NOT NULL,
  companyId TEXT,
  credentialKey TEXT,
  claimedAt INTEGER,
  deliveredAt INTEGER
) STRICT;
CREATE INDEX kiosk_pairings_expiry ON kiosk_pairings (expiresAt);

-- Hub: wrong pairing codes tried, per company and window, so that guessing stays slower than the codes expire.
CREATE TABLE kiosk_pairing_guesses (
  companyId TEXT NOT NULL,
  windowStart INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  PRIMARY KEY (companyId, windowStart)
) STRICT;
