-- Accounts of people in the console (docs/console.md, "Signing in and accounts"; docs/security.md, "Accounts"). A
-- host with an account has a password hash here (argon2id; none while invited, or when the person signs in only by
-- link or single sign-on). Links sent by e-mail (set a password, reset it, sign in) and console sessions keep only
-- the SHA-256 of their random token. Failed sign-ins are counted per account and per source address, to slow
-- guessing. Each company's way of signing in is one row of account_settings (the OIDC client secret sealed).
-- PostgreSQL's migration of the same number makes the same.
CREATE TABLE accounts (
  hostId TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  passwordHash TEXT,
  createdAt INTEGER NOT NULL,
  updatedAt INTEGER NOT NULL
) STRICT;
CREATE INDEX accounts_company ON accounts (companyId);
CREATE TABLE account_tokens (
  tokenHash TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  hostId TEXT NOT NULL,
  purpose TEXT NOT NULL,
  createdAt INTEGER NOT NULL,
  expiresAt INTEGER NOT NULL,
  usedAt INTEGER
) STRICT;
CREATE INDEX account_tokens_host ON account_tokens (hostId, purpose);
CREATE INDEX account_tokens_expiry ON account_tokens (expiresAt);
CREATE TABLE account_sessions (
  id TEXT PRIMARY KEY,
  tokenHash TEXT NOT NULL UNIQUE,
  companyId TEXT NOT NULL,
  hostId TEXT NOT NULL,
  createdAt INTEGER NOT NULL,
  lastSeenAt INTEGER NOT NULL,
  expiresAt INTEGER NOT NULL,
  userAgent TEXT,
  address TEXT
) STRICT;
CREATE INDEX account_sessions_host ON account_sessions (hostId);
CREATE INDEX account_sessions_expiry ON account_sessions (expiresAt);
CREATE TABLE account_failures (
  subject TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  lastFailureAt INTEGER NOT NULL,
  lockedUntil INTEGER NOT NULL
) STRICT;
CREATE TABLE account_settings (
  companyId TEXT PRIMARY KEY,
  signIn TEXT NOT NULL DEFAULT 'password',
  oidcEnabled INTEGER NOT NULL DEFAULT 0,
  oidcIssuer TEXT NOT NULL DEFAULT '',
  oidcClientId TEXT NOT NULL DEFAULT '',
  oidcClientSecret TEXT NOT NULL DEFAULT '',
  oidcName TEXT NOT NULL DEFAULT '',
  updatedAt INTEGER NOT NULL
) STRICT;
