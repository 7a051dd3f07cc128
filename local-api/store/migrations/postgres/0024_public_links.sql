-- Links in messages that open pages outside the API (docs/api.md, "Public pages"): the hub's public address as a
-- kiosk learnt it from the hub's feed, the company's key that signs the links (sealed; it travels to the company's
-- kiosks like the other settings' secrets), and the single-use links already used.
ALTER TABLE sync_state ADD COLUMN hubPublicUrl TEXT;
ALTER TABLE notification_settings ADD COLUMN linkKey TEXT;
CREATE TABLE used_links (
  companyId TEXT NOT NULL,
  linkId TEXT NOT NULL,
  usedAt BIGINT NOT NULL,
  PRIMARY KEY (companyId, linkId)
);
