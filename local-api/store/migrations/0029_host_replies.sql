-- A host's reply to "your visitor is here" (docs/api.md, "Deciding from the message"): the first time the host
-- opened the message's page and when they answered it (allowed, denied, or "on my way"). Written where the page is
-- served (a hub, or a standalone kiosk with a public address) and sent to the company's kiosks by the feed, where
-- the escalation of the check-in reads it. One row per visit; no one's personal data.
CREATE TABLE host_replies (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  hostId TEXT,
  openedAt INTEGER,
  answeredAt INTEGER,
  answer TEXT,
  updatedAt INTEGER NOT NULL
) STRICT;
CREATE INDEX host_replies_company_updated ON host_replies (companyId, updatedAt);
-- A host who had not opened nor answered within the company's time: the fallback was told, and the front desk
-- shows it until the host answers. Kept where the check-in was taken (its queue escalates). One row per visit.
CREATE TABLE host_escalations (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  hostId TEXT,
  escalatedAt INTEGER NOT NULL
) STRICT;
CREATE INDEX host_escalations_company_at ON host_escalations (companyId, escalatedAt);
-- When the fallback is told (0: never), and the reception's address it goes to besides the host's other addresses.
ALTER TABLE notification_settings ADD COLUMN escalateAfterMinutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notification_settings ADD COLUMN receptionEmail TEXT NOT NULL DEFAULT '';
