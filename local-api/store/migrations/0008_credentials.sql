-- Credentials with roles. A company's API keys become `admin` credentials; the device owner's tokens have no
-- company. Keys are stored as their SHA-256 only; `prefix` (the key's first characters, for telling keys apart in
-- a list) is unknown for keys made before this table and left NULL. `expiresAt` bounds a front-desk session's
-- life; its idle expiry is read from `lastUsedAt`.
CREATE TABLE credentials (
  id TEXT PRIMARY KEY,
  companyId TEXT REFERENCES companies (id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'readonly', 'frontdesk', 'kiosk', 'sync')),
  label TEXT NOT NULL,
  prefix TEXT,
  keyHash BLOB NOT NULL UNIQUE,
  createdAt INTEGER NOT NULL,
  lastUsedAt INTEGER,
  expiresAt INTEGER,
  revokedAt INTEGER,
  CHECK ((role = 'owner') = (companyId IS NULL))
) STRICT;
CREATE INDEX credentials_company ON credentials (companyId, createdAt);

INSERT INTO credentials (id, companyId, role, label, keyHash, createdAt, revokedAt)
SELECT lower(hex(randomblob(8))), companyId, 'admin', 'API key', keyHash, createdAt, revokedAt FROM api_keys;

DROP TABLE api_keys;

-- The company this device's kiosk serves (one row at most), and the kiosk credential its screens use (sealed with
-- the device key: the page receives it in clear, through the bridge or /kiosk/session).
CREATE TABLE device_enrolment (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  companyId TEXT NOT NULL REFERENCES companies (id),
  kioskCredentialId TEXT NOT NULL REFERENCES credentials (id),
  kioskKey TEXT NOT NULL,
  enrolledAt INTEGER NOT NULL
) STRICT;
