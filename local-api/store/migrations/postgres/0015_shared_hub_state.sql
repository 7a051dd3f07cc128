-- What several hub processes on one database must share: see migrations/0015_shared_hub_state.sql.
ALTER TABLE jobs ADD COLUMN claimedBy TEXT;
ALTER TABLE jobs ADD COLUMN claimedUntil BIGINT;

CREATE TABLE failure_limits (
  scope TEXT NOT NULL,
  subject TEXT NOT NULL,
  failures TEXT NOT NULL DEFAULT '[]',
  lockedUntil BIGINT NOT NULL DEFAULT 0,
  updatedAt BIGINT NOT NULL,
  PRIMARY KEY (scope, subject)
);
