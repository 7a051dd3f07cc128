-- Returning visitors: the consent to be remembered, the phone keys, the one-time codes, as SQLite's migration of
-- the same number (migrations/).
ALTER TABLE visits ADD COLUMN rememberVisitor BIGINT;
ALTER TABLE visitors ADD COLUMN rememberConsent BIGINT;
ALTER TABLE visitors ADD COLUMN rememberConsentAt BIGINT;
ALTER TABLE visitors ADD COLUMN phoneKey TEXT;
ALTER TABLE visitors ADD COLUMN phoneTail TEXT;
ALTER TABLE visitors ADD COLUMN lastHostId TEXT;
CREATE INDEX visitors_phone ON visitors (companyId, phoneTail) WHERE deletedAt IS NULL;
CREATE TABLE returning_codes (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  credentialId TEXT NOT NULL,
  visitorId TEXT,
  codeHash TEXT NOT NULL,
  attempts BIGINT NOT NULL DEFAULT 0,
  expiresAt BIGINT NOT NULL,
  createdAt BIGINT NOT NULL
);
CREATE INDEX returning_codes_expiry ON returning_codes (expiresAt);
CREATE INDEX returning_codes_visitor ON returning_codes (visitorId);
