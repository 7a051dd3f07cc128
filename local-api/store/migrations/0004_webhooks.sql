-- Webhook registrations (docs/access-control.md, "Webhooks"): where a company wants its visit, invitee and host events delivered.
-- `secret` is sealed with the device key (like the access-control aesKey and password); `events` is a JSON array
-- of event names, or ["*"] for all. Deliveries themselves are jobs of kind `webhook.delivery` in `jobs`.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id),
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL,
  deletedAt INTEGER,
  url TEXT NOT NULL,
  events TEXT NOT NULL DEFAULT '["*"]',
  secret TEXT NOT NULL,
  isActive INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE INDEX webhooks_list ON webhooks (companyId, isActive) WHERE deletedAt IS NULL;
