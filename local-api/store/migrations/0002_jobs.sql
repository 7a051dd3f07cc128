-- A durable queue of outgoing work (gate callbacks, webhooks, e-mails): written in the same transaction as what
-- caused it, so nothing acknowledged to a client is lost when the process dies before the call is made.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  companyId TEXT NOT NULL,
  kind TEXT NOT NULL,
  idempotencyKey TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  nextAttemptAt INTEGER NOT NULL,
  giveUpAt INTEGER NOT NULL,
  lastError TEXT,
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX jobs_key ON jobs (kind, idempotencyKey);
CREATE INDEX jobs_due ON jobs (nextAttemptAt) WHERE status = 'pending';
CREATE INDEX jobs_company ON jobs (companyId, kind, status);
