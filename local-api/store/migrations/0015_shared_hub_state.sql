-- What several hub processes on one database must share (docs/deployment.md).
-- A job is claimed by the worker that runs it, until the attempt's deadline and a grace: a process that dies while
-- it runs a job leaves a claim that runs out, and another process takes the job then. On a kiosk one process owns
-- the file, and the claim only says what runs.
ALTER TABLE jobs ADD COLUMN claimedBy TEXT;
ALTER TABLE jobs ADD COLUMN claimedUntil INTEGER;

-- Failures counted against a key (wrong front-desk PINs per company, kiosk lookups that find nobody per kiosk):
-- the times of the failures within the window (a JSON array), and when a key locked by them may try again.
CREATE TABLE failure_limits (
  scope TEXT NOT NULL,
  subject TEXT NOT NULL,
  failures TEXT NOT NULL DEFAULT '[]',
  lockedUntil INTEGER NOT NULL DEFAULT 0,
  updatedAt INTEGER NOT NULL,
  PRIMARY KEY (scope, subject)
) STRICT;
