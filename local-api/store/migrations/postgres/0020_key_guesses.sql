-- Wrong API keys counted where every hub process sees them (docs/reliability.md, "Wrong API keys"): one row per
-- source address and per key prefix, with the failures of its current window and when its lock ends. Only
-- PostgreSQL has it: on SQLite one process owns the data folder and keeps the counts in memory
-- (local-api/http/key-guessing.ts).
CREATE TABLE key_guesses (
  subject TEXT PRIMARY KEY,
  windowStart BIGINT NOT NULL,
  failures INTEGER NOT NULL,
  lockedUntil BIGINT NOT NULL
);
