-- Returning visitors (docs/kiosk.md, "Returning visitors"; docs/security.md, "Returning visitors"): the answer a
-- check-in gave to "remember me for next time" (on the visit, so that it reaches the hub with the kiosk's record of
-- the check-in), the visitor's standing consent and when it was given, the phone keys a consenting visitor is found
-- by, the host of their last visit (filled in for them), and the one-time codes sent to prove an e-mail or phone
-- (hashed; they expire after 10 minutes). PostgreSQL's migration of the same number makes the same.
ALTER TABLE visits ADD COLUMN rememberVisitor INTEGER;
ALTER TABLE visitors ADD COLUMN rememberConsent INTEGER;
ALTER TABLE visitors ADD COLUMN rememberConsentAt INTEGER;
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
  attempts INTEGER NOT NULL DEFAULT 0,
  expiresAt INTEGER NOT NULL,
  createdAt INTEGER NOT NULL
) STRICT;
CREATE INDEX returning_codes_expiry ON returning_codes (expiresAt);
CREATE INDEX returning_codes_visitor ON returning_codes (visitorId);
