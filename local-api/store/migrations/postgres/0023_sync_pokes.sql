-- Pokes (docs/sync.md, "Pokes"): every statement that adds entries to the change feed notifies, on the channel
-- portaria_sync_changes, each company it added entries for. A NOTIFY is delivered when its transaction commits
-- and never when it rolls back, so a hub process LISTENing there tells its subscribed kiosks to pull only once the
-- change can be read; PostgreSQL folds identical notifications of one transaction into one, so a push of a hundred
-- mutations is one notification. Only PostgreSQL has it: on SQLite the one service process notices its own writes
-- (local-api/sync/pokes.ts).
CREATE FUNCTION sync_changes_poke() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portaria_sync_changes', company) FROM (SELECT DISTINCT companyId AS company FROM added) written;
  RETURN NULL;
END $$;
CREATE TRIGGER sync_changes_poke AFTER INSERT ON sync_changes
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sync_changes_poke();
