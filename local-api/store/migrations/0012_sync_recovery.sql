-- Kiosk: the last mutation id the hub confirmed for the current client id. A hub that later knows less has lost
-- what it confirmed (its database restored from an older backup): the kiosk sends it again (docs/sync.md).
ALTER TABLE sync_state ADD COLUMN confirmedMutationId INTEGER NOT NULL DEFAULT 0;
