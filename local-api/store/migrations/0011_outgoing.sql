-- Fair delivery of outgoing work and where it may go.
-- A job's endpoint (`gate`, `webhook:<id>`, `notification:email`…) and priority (lower first: gate callbacks
-- ahead of notifications, notifications ahead of webhooks) let the worker share its slots between companies and
-- endpoints; jobs queued before this migration count as one endpoint per kind.
ALTER TABLE jobs ADD COLUMN endpoint TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;
UPDATE jobs SET endpoint = kind;
UPDATE jobs SET priority = 0 WHERE kind = 'gate.callback';
UPDATE jobs SET priority = 2 WHERE kind = 'webhook.delivery';

-- The circuit breaker of each company's endpoint: consecutive failed attempts, and while open, when the next
-- trial attempt may go.
CREATE TABLE job_endpoints (
  companyId TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  openUntil INTEGER,
  cooldownMs INTEGER NOT NULL DEFAULT 0,
  updatedAt INTEGER NOT NULL,
  PRIMARY KEY (companyId, endpoint)
) STRICT;

-- What the device owner lets outgoing requests reach besides the public internet (and, on a kiosk, the local
-- networks): address ranges, comma-separated. One row.
CREATE TABLE outgoing_policy (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  allowedDestinations TEXT NOT NULL DEFAULT '',
  updatedAt INTEGER NOT NULL
) STRICT;
