-- Accounts of people in the console: passwords, e-mailed links, sessions, failed sign-ins and each company's way
-- of signing in, as SQLite's migration of the same number (migrations/).
CREATE TABLE accounts (
  hostId TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  passwordHash TEXT,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL
);
CREATE INDEX accounts_company ON accounts (companyId);
CREATE TABLE account_tokens (
  tokenHash TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  hostId TEXT NOT NULL,
  purpose TEXT NOT NULL,
  createdAt BIGINT NOT NULL,
  expiresAt BIGINT NOT NULL,
  usedAt BIGINT
);
CREATE INDEX account_tokens_host ON account_tokens (hostId, purpose);
CREATE INDEX account_tokens_expiry ON account_tokens (expiresAt);
CREATE TABLE account_sessions (
  id TEXT PRIMARY KEY,
  tokenHash TEXT NOT NULL UNIQUE,
  companyId TEXT NOT NULL,
  hostId TEXT NOT NULL,
  createdAt BIGINT NOT NULL,
  lastSeenAt BIGINT NOT NULL,
  expiresAt BIGINT NOT NULL,
  userAgent TEXT,
  address TEXT
);
CREATE INDEX account_sessions_host ON account_sessions (hostId);
CREATE INDEX account_sessions_expiry ON account_sessions (expiresAt);
CREATE TABLE account_failures (
  subject TEXT PRIMARY KEY,
  failures BIGINT NOT NULL,
  lastFailureAt BIGINT NOT NULL,
  lockedUntil BIGINT NOT NULL
);
CREATE TABLE account_settings (
  companyId TEXT PRIMARY KEY,
  signIn TEXT NOT NULL DEFAULT 'password',
  oidcEnabled BIGINT NOT NULL DEFAULT 0,
  oidcIssuer TEXT NOT NULL DEFAULT '',
  oidcClientId TEXT NOT NULL DEFAULT '',
  oidcClientSecret TEXT NOT NULL DEFAULT '',
  oidcName TEXT NOT NULL DEFAULT '',
  updatedAt BIGINT NOT NULL
);
