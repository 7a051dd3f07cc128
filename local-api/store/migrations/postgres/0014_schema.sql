-- The schema on PostgreSQL, as the SQLite migrations up to 0014 leave it (docs/deployment.md, "Schema").
-- Same tables, columns and indexes; column names are unquoted (PostgreSQL folds them to lower case, and the store
-- maps result columns back to their camelCase names); SQLite's COLLATE NOCASE is citext; 0/1 flags stay integers
-- so that rows read the same from both engines. A later migration is written once per engine, with one number.
CREATE EXTENSION IF NOT EXISTS citext;
CREATE TABLE companies (
  id TEXT PRIMARY KEY,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  name TEXT NOT NULL,
  createdById TEXT,
  lang TEXT NOT NULL DEFAULT 'en',
  plan TEXT NOT NULL DEFAULT 'TRIAL',
  planIsActive BIGINT NOT NULL DEFAULT 1,
  trialUntil BIGINT NOT NULL,
  location TEXT,
  pictureUrl TEXT,
  address TEXT,
  city TEXT,
  complement TEXT,
  country TEXT,
  state TEXT,
  type TEXT NOT NULL DEFAULT 'INDEPENDENT',
  timezone TEXT,
  invitePrefix TEXT,
  phone TEXT,
  email TEXT,
  countryCode TEXT,
  touchlessId TEXT,
  parentCompanyId TEXT,
  mapAddressUrl TEXT,
  visibleOnKiosk BIGINT NOT NULL DEFAULT 1,
  serproClientId TEXT,
  serproClientSecret TEXT,
  serproAuthToken TEXT,
  liberadoAuthToken TEXT,
  serproAuthTokenExpiresAt BIGINT,
  whatsappMessageNameSource TEXT DEFAULT 'company',
  module TEXT NOT NULL DEFAULT 'default',
  multipleVisitFlowsEnabled BIGINT,
  disableQrcodeApp BIGINT DEFAULT 0,
  showAssociatedCHsApp BIGINT DEFAULT 0
);
CREATE TABLE hosts (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  name CITEXT NOT NULL,
  email CITEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'HOST',
  isActive BIGINT NOT NULL DEFAULT 0,
  preCheckinNotifications BIGINT NOT NULL DEFAULT 1,
  isPhoneValid BIGINT NOT NULL DEFAULT 0,
  sendInvitationEmail BIGINT NOT NULL DEFAULT 0,
  additionalEmails TEXT NOT NULL DEFAULT '[]',
  additionalPhones TEXT NOT NULL DEFAULT '[]',
  pictureUrl TEXT,
  pictureThumbUrl TEXT,
  position CITEXT,
  sector CITEXT,
  cpf TEXT,
  phone TEXT,
  countryCode TEXT,
  message TEXT,
  deliveryNotification BIGINT NOT NULL DEFAULT 0,
  metadata TEXT,
  defaultMeetingLocationId TEXT,
  defaultMeetingTypeId TEXT,
  userId TEXT,
  createdById TEXT,
  zoneId TEXT,
  invenziId TEXT,
  mifareCardNumber TEXT,
  allowCredentialing BIGINT NOT NULL DEFAULT 0,
  canAuthorizeAllCredentialing BIGINT NOT NULL DEFAULT 0,
  disableMeetingCreation BIGINT NOT NULL DEFAULT 0,
  spaceManagementEnabled BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX hosts_email ON hosts (companyId, email) WHERE deletedAt IS NULL;
CREATE INDEX hosts_list ON hosts (companyId) WHERE deletedAt IS NULL;
CREATE INDEX hosts_name ON hosts (companyId, name);
CREATE INDEX hosts_role ON hosts (companyId, role) WHERE deletedAt IS NULL;
CREATE INDEX hosts_sector ON hosts (companyId, sector) WHERE deletedAt IS NULL;
CREATE INDEX hosts_position ON hosts (companyId, position) WHERE deletedAt IS NULL;
CREATE INDEX hosts_phone ON hosts (companyId, phone) WHERE deletedAt IS NULL;
CREATE INDEX hosts_cpf ON hosts (companyId, cpf) WHERE deletedAt IS NULL;
CREATE INDEX hosts_active ON hosts (companyId, isActive) WHERE deletedAt IS NULL;
CREATE INDEX hosts_created ON hosts (companyId, createdAt) WHERE deletedAt IS NULL;
CREATE TABLE invitees (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  hostId TEXT NOT NULL REFERENCES hosts (id) DEFERRABLE,
  meetingId TEXT,
  expectedAt BIGINT NOT NULL,
  status TEXT NOT NULL DEFAULT 'confirmed',
  lang TEXT,
  name CITEXT,
  phone TEXT,
  cpf TEXT,
  rg TEXT,
  document TEXT,
  email CITEXT,
  address CITEXT,
  company CITEXT,
  position CITEXT,
  sector CITEXT,
  pictureUrl TEXT,
  customFields TEXT NOT NULL DEFAULT '[]',
  cardNumber BIGINT NOT NULL,
  notes TEXT,
  requiresAuthorization BIGINT NOT NULL DEFAULT 0
, pictureFile TEXT, visitorTypeId TEXT);
CREATE INDEX invitees_list ON invitees (companyId) WHERE deletedAt IS NULL;
CREATE INDEX invitees_expected ON invitees (companyId, expectedAt) WHERE deletedAt IS NULL;
CREATE INDEX invitees_status ON invitees (companyId, status) WHERE deletedAt IS NULL;
CREATE INDEX invitees_host ON invitees (companyId, hostId) WHERE deletedAt IS NULL;
CREATE INDEX invitees_name ON invitees (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX invitees_email ON invitees (companyId, email) WHERE deletedAt IS NULL;
CREATE INDEX invitees_phone ON invitees (companyId, phone) WHERE deletedAt IS NULL;
CREATE INDEX invitees_cpf ON invitees (companyId, cpf) WHERE deletedAt IS NULL;
CREATE INDEX invitees_rg ON invitees (companyId, rg) WHERE deletedAt IS NULL;
CREATE INDEX invitees_document ON invitees (companyId, document) WHERE deletedAt IS NULL;
CREATE INDEX invitees_company ON invitees (companyId, company) WHERE deletedAt IS NULL;
CREATE INDEX invitees_position ON invitees (companyId, position) WHERE deletedAt IS NULL;
CREATE INDEX invitees_sector ON invitees (companyId, sector) WHERE deletedAt IS NULL;
CREATE INDEX invitees_address ON invitees (companyId, address) WHERE deletedAt IS NULL;
CREATE UNIQUE INDEX invitees_card ON invitees (companyId, cardNumber) WHERE deletedAt IS NULL;
CREATE TABLE visits (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  hostId TEXT REFERENCES hosts (id) DEFERRABLE,
  inviteeId TEXT REFERENCES invitees (id) DEFERRABLE,
  visitorId TEXT,
  name CITEXT,
  email CITEXT,
  phone TEXT,
  cpf TEXT,
  rg TEXT,
  document TEXT,
  address CITEXT,
  company CITEXT,
  position CITEXT,
  sector CITEXT,
  cardNumber TEXT,
  issuanceToken TEXT,
  expectedAt BIGINT,
  expectedOutAt BIGINT,
  checkinAt BIGINT NOT NULL,
  checkinType TEXT,
  checkoutType TEXT,
  finishCheckinAt BIGINT,
  checkoutAt BIGINT,
  isInsideCompany BIGINT NOT NULL DEFAULT 1,
  authorizedById TEXT,
  authorizedAt BIGINT,
  authorizationVia TEXT,
  authorizationLink TEXT,
  authorizationStatus TEXT,
  visitorStatus TEXT,
  statusNote TEXT,
  checkinByHostId TEXT,
  checkoutByHostId TEXT,
  checkinByIpadId TEXT,
  checkoutByIpadId TEXT,
  notes TEXT,
  customHostName TEXT,
  meetingId TEXT,
  userId TEXT,
  isCanceled BIGINT NOT NULL DEFAULT 0,
  firstAccessAt BIGINT,
  timeToDelayVisit BIGINT,
  customFields TEXT NOT NULL DEFAULT '[]',
  questionnaireFields TEXT NOT NULL DEFAULT '[]',
  feedbacks TEXT NOT NULL DEFAULT '[]',
  pictureFile TEXT,
  ndaFile TEXT
, visitorTypeId TEXT);
CREATE INDEX visits_list ON visits (companyId) WHERE deletedAt IS NULL;
CREATE INDEX visits_checkin ON visits (companyId, checkinAt) WHERE deletedAt IS NULL;
CREATE INDEX visits_checkout ON visits (companyId, checkoutAt) WHERE deletedAt IS NULL;
CREATE INDEX visits_inside ON visits (companyId, isInsideCompany) WHERE deletedAt IS NULL;
CREATE INDEX visits_host ON visits (companyId, hostId) WHERE deletedAt IS NULL;
CREATE INDEX visits_name ON visits (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX visits_email ON visits (companyId, email) WHERE deletedAt IS NULL;
CREATE INDEX visits_document ON visits (companyId, document) WHERE deletedAt IS NULL;
CREATE INDEX visits_cpf ON visits (companyId, cpf) WHERE deletedAt IS NULL;
CREATE INDEX visits_phone ON visits (companyId, phone) WHERE deletedAt IS NULL;
CREATE INDEX visits_invitee ON visits (companyId, inviteeId) WHERE deletedAt IS NULL;
CREATE INDEX visits_card ON visits (companyId, cardNumber) WHERE deletedAt IS NULL;
CREATE TABLE access_configs (
  companyId TEXT PRIMARY KEY REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  enabled BIGINT NOT NULL DEFAULT 0,
  aesKey TEXT NOT NULL DEFAULT '',
  qrcodeDuration BIGINT NOT NULL DEFAULT 30,
  url TEXT NOT NULL DEFAULT '',
  username TEXT NOT NULL DEFAULT '',
  password TEXT NOT NULL DEFAULT '',
  totpEnabled BIGINT NOT NULL DEFAULT 0,
  staticVisitorQRCode BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE jobs (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  companyId TEXT NOT NULL,
  kind TEXT NOT NULL,
  idempotencyKey TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  attempts BIGINT NOT NULL DEFAULT 0,
  nextAttemptAt BIGINT NOT NULL,
  giveUpAt BIGINT NOT NULL,
  lastError TEXT,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL
, endpoint TEXT NOT NULL DEFAULT '', priority BIGINT NOT NULL DEFAULT 1);
CREATE UNIQUE INDEX jobs_key ON jobs (kind, idempotencyKey);
CREATE INDEX jobs_due ON jobs (nextAttemptAt) WHERE status = 'pending';
CREATE INDEX jobs_company ON jobs (companyId, kind, status);
CREATE TABLE meetings (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  title CITEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'MEETING',
  start BIGINT NOT NULL,
  "end" BIGINT NOT NULL,
  durationInHours BIGINT,
  isRecurring BIGINT NOT NULL DEFAULT 0,
  recurrencePattern TEXT,
  allDay BIGINT NOT NULL DEFAULT 0,
  timezone TEXT,
  message TEXT,
  location CITEXT,
  notes TEXT,
  createdOn TEXT NOT NULL DEFAULT 'DASHBOARD',
  coHosts TEXT NOT NULL DEFAULT '[]',
  guests TEXT NOT NULL DEFAULT '[]',
  meetingTypeId TEXT,
  meetingLocationId TEXT,
  inviteId TEXT,
  createdByHostId TEXT,
  hostId TEXT NOT NULL REFERENCES hosts (id) DEFERRABLE,
  lang TEXT NOT NULL DEFAULT 'en',
  metadata TEXT,
  visitFlowTypeId TEXT NOT NULL DEFAULT 'default',
  startRegistrationAt BIGINT,
  endRegistrationAt BIGINT
);
CREATE INDEX meetings_list ON meetings (companyId) WHERE deletedAt IS NULL;
CREATE INDEX meetings_start ON meetings (companyId, start) WHERE deletedAt IS NULL;
CREATE INDEX meetings_host ON meetings (companyId, hostId) WHERE deletedAt IS NULL;
CREATE INDEX meetings_title ON meetings (companyId, title) WHERE deletedAt IS NULL;
CREATE INDEX invitees_meeting ON invitees (meetingId) WHERE meetingId IS NOT NULL;
CREATE TABLE blocklist (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  name CITEXT,
  reason TEXT,
  phone TEXT,
  email CITEXT,
  document TEXT,
  cpf TEXT,
  rg TEXT,
  createdById TEXT,
  deletedById TEXT,
  cpfKey TEXT,
  rgKey TEXT,
  documentKey TEXT,
  emailKey TEXT,
  phoneKey TEXT,
  phoneTail TEXT
);
CREATE INDEX blocklist_list ON blocklist (companyId) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_name ON blocklist (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_cpf ON blocklist (companyId, cpfKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_rg ON blocklist (companyId, rgKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_document ON blocklist (companyId, documentKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_email ON blocklist (companyId, emailKey) WHERE deletedAt IS NULL;
CREATE INDEX blocklist_phone ON blocklist (companyId, phoneTail) WHERE deletedAt IS NULL;
CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  type TEXT NOT NULL,
  message TEXT,
  -- The ids of the hosts it was sent to.
  hosts TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX notifications_list ON notifications (companyId) WHERE deletedAt IS NULL;
CREATE INDEX notifications_type ON notifications (companyId, type) WHERE deletedAt IS NULL;
CREATE INDEX notifications_created ON notifications (companyId, createdAt) WHERE deletedAt IS NULL;
CREATE TABLE notification_settings (
  companyId TEXT PRIMARY KEY REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  smtpHost TEXT NOT NULL DEFAULT '',
  smtpPort BIGINT NOT NULL DEFAULT 587,
  smtpSecurity TEXT NOT NULL DEFAULT 'starttls',
  smtpUsername TEXT NOT NULL DEFAULT '',
  smtpPassword TEXT NOT NULL DEFAULT '',
  emailFrom TEXT NOT NULL DEFAULT '',
  webhookUrl TEXT NOT NULL DEFAULT '',
  webhookSecret TEXT NOT NULL DEFAULT ''
);
CREATE TABLE custom_fields (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  name CITEXT NOT NULL,
  type TEXT NOT NULL,
  options TEXT NOT NULL DEFAULT '[]',
  required BIGINT NOT NULL DEFAULT 0,
  localizedName TEXT NOT NULL DEFAULT '{}',
  sort BIGINT NOT NULL DEFAULT 0,
  location TEXT NOT NULL DEFAULT 'FIELD'
, localizedOptions TEXT NOT NULL DEFAULT '{}');
CREATE INDEX custom_fields_list ON custom_fields (companyId, sort) WHERE deletedAt IS NULL;
CREATE INDEX custom_fields_location ON custom_fields (companyId, location, sort) WHERE deletedAt IS NULL;
CREATE TABLE visitors (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  name CITEXT,
  email CITEXT,
  phone TEXT,
  cpf TEXT,
  rg TEXT,
  document TEXT,
  company CITEXT,
  position CITEXT,
  sector CITEXT,
  address CITEXT,
  lastVisitAt BIGINT,
  visitCount BIGINT NOT NULL DEFAULT 0,
  emailKey TEXT,
  cpfKey TEXT,
  documentKey TEXT
);
CREATE INDEX visitors_list ON visitors (companyId) WHERE deletedAt IS NULL;
CREATE INDEX visitors_name ON visitors (companyId, name) WHERE deletedAt IS NULL;
CREATE INDEX visitors_last ON visitors (companyId, lastVisitAt) WHERE deletedAt IS NULL;
CREATE INDEX visitors_email ON visitors (companyId, emailKey) WHERE deletedAt IS NULL;
CREATE INDEX visitors_cpf ON visitors (companyId, cpfKey) WHERE deletedAt IS NULL;
CREATE INDEX visitors_document ON visitors (companyId, documentKey) WHERE deletedAt IS NULL;
CREATE INDEX visits_visitor ON visits (companyId, visitorId) WHERE deletedAt IS NULL;
CREATE TABLE files (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  deletedAt BIGINT,
  purpose TEXT NOT NULL,
  mediaType TEXT NOT NULL,
  extension TEXT NOT NULL,
  size BIGINT NOT NULL,
  sha256 TEXT NOT NULL
);
CREATE INDEX files_company ON files (companyId) WHERE deletedAt IS NULL;
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  url TEXT NOT NULL,
  events TEXT NOT NULL DEFAULT '["*"]',
  secret TEXT NOT NULL,
  isActive BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX webhooks_list ON webhooks (companyId, isActive) WHERE deletedAt IS NULL;
CREATE TABLE sync_state (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  -- Names this service's change feed (in cursors) and its hybrid logical clock.
  nodeId TEXT NOT NULL,
  -- The kiosk's name towards the hub; replaced when the hub no longer knows the kiosk's mutations.
  clientId TEXT NOT NULL,
  hlc TEXT NOT NULL,
  -- Changes up to this sequence number may have been pruned: older cursors are answered with a full resync.
  horizon BIGINT NOT NULL DEFAULT 0,
  upstreamUrl TEXT,
  -- Sealed with the device key.
  upstreamKey TEXT,
  -- The hub company the upstream key belongs to, learned from the hub's first answer.
  companyId TEXT,
  cursor TEXT,
  resyncing BIGINT NOT NULL DEFAULT 0,
  lastSuccessAt BIGINT,
  lastError TEXT,
  lastErrorAt BIGINT,
  rejected BIGINT NOT NULL DEFAULT 0,
  clockSkewMs BIGINT
, confirmedMutationId BIGINT NOT NULL DEFAULT 0);
CREATE TABLE sync_changes (
  seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  companyId TEXT NOT NULL,
  deleted BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX sync_changes_row ON sync_changes (tableName, rowKey);
CREATE INDEX sync_changes_feed ON sync_changes (companyId, seq);
CREATE INDEX sync_changes_tombstones ON sync_changes (seq) WHERE deleted = 1;
CREATE TABLE sync_outbox (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  companyId TEXT NOT NULL,
  name TEXT NOT NULL,
  args TEXT NOT NULL,
  hlc TEXT NOT NULL,
  createdAt BIGINT NOT NULL
);
CREATE INDEX sync_outbox_company ON sync_outbox (companyId, id);
CREATE TABLE sync_outbox_rows (
  mutationId BIGINT NOT NULL REFERENCES sync_outbox (id) ON DELETE CASCADE DEFERRABLE,
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  PRIMARY KEY (tableName, rowKey, mutationId)
);
CREATE INDEX sync_outbox_rows_mutation ON sync_outbox_rows (mutationId);
CREATE TABLE sync_resync_seen (
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  PRIMARY KEY (tableName, rowKey)
);
CREATE TABLE sync_clients (
  companyId TEXT NOT NULL,
  clientId TEXT NOT NULL,
  lastMutationId BIGINT NOT NULL,
  -- The timestamp of that mutation: an id already seen arriving with a later one is not a retry but a kiosk whose
  -- numbering went back (its database restored from a backup).
  lastMutationHlc TEXT NOT NULL DEFAULT '',
  applied BIGINT NOT NULL DEFAULT 0,
  duplicates BIGINT NOT NULL DEFAULT 0,
  rejected BIGINT NOT NULL DEFAULT 0,
  createdAt BIGINT NOT NULL,
  lastPushAt BIGINT NOT NULL,
  PRIMARY KEY (companyId, clientId)
);
CREATE TABLE sync_rejections (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  companyId TEXT NOT NULL,
  clientId TEXT NOT NULL,
  mutationId BIGINT NOT NULL,
  name TEXT NOT NULL,
  args TEXT NOT NULL,
  hlc TEXT NOT NULL,
  type TEXT NOT NULL,
  createdAt BIGINT NOT NULL
);
CREATE INDEX sync_rejections_company ON sync_rejections (companyId, createdAt);
CREATE TABLE sync_registers (
  tableName TEXT NOT NULL,
  rowKey TEXT NOT NULL,
  register TEXT NOT NULL,
  hlc TEXT NOT NULL,
  PRIMARY KEY (tableName, rowKey, register)
);
CREATE TABLE privacy_settings (
  companyId TEXT PRIMARY KEY REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  -- Days a visit (by check-in) or an invitee (by expected time) is kept; NULL keeps them until erased.
  retentionDays BIGINT CHECK (retentionDays IS NULL OR retentionDays > 0),
  lastSweepAt BIGINT
);
CREATE TABLE file_deletions (
  path TEXT PRIMARY KEY,
  companyId TEXT NOT NULL,
  createdAt BIGINT NOT NULL
);
CREATE TABLE audit_log (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  at BIGINT NOT NULL,
  -- The domain event: visit.checkout, visit.allowed, invitee.deleted, privacy.erased…
  action TEXT NOT NULL,
  objectType TEXT,
  objectId TEXT,
  -- The host the object names as having acted (checkoutByHostId, authorizedById), when it names one.
  actorHostId TEXT,
  -- The object's top-level numbers and booleans (counts, flags), as JSON.
  details TEXT NOT NULL DEFAULT '{}'
, actorCredentialId TEXT, actorRole TEXT);
CREATE INDEX audit_log_list ON audit_log (companyId, id);
CREATE INDEX audit_log_at ON audit_log (companyId, at);
CREATE INDEX audit_log_action ON audit_log (companyId, action);
CREATE INDEX audit_log_object ON audit_log (companyId, objectId);
CREATE INDEX audit_log_actor ON audit_log (companyId, actorHostId);
CREATE TABLE kiosk_settings (
  companyId TEXT PRIMARY KEY REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  visitorFields TEXT NOT NULL,
  pictureMode TEXT NOT NULL CHECK (pictureMode IN ('off', 'optional', 'required')),
  ndaText TEXT NOT NULL,
  requireAuthorization BIGINT NOT NULL,
  idleSeconds BIGINT NOT NULL,
  badgePrinting BIGINT NOT NULL,
  pinHash TEXT
, localizedNdaText TEXT NOT NULL DEFAULT '{}');
CREATE TABLE credentials (
  id TEXT PRIMARY KEY,
  companyId TEXT REFERENCES companies (id) DEFERRABLE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'readonly', 'frontdesk', 'kiosk', 'sync')),
  label TEXT NOT NULL,
  prefix TEXT,
  keyHash BYTEA NOT NULL UNIQUE,
  createdAt BIGINT NOT NULL,
  lastUsedAt BIGINT,
  expiresAt BIGINT,
  revokedAt BIGINT,
  CHECK ((role = 'owner') = (companyId IS NULL))
);
CREATE INDEX credentials_company ON credentials (companyId, createdAt);
CREATE TABLE device_enrolment (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  kioskCredentialId TEXT NOT NULL REFERENCES credentials (id) DEFERRABLE,
  kioskKey TEXT NOT NULL,
  enrolledAt BIGINT NOT NULL
);
CREATE TABLE visitor_types (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  updatedAt BIGINT NOT NULL,
  deletedAt BIGINT,
  kind TEXT NOT NULL CHECK (kind IN ('guest', 'interview', 'contractor', 'delivery', 'custom')),
  name TEXT NOT NULL,
  localizedName TEXT NOT NULL DEFAULT '{}',
  badgeLabel TEXT NOT NULL,
  localizedBadgeLabel TEXT NOT NULL DEFAULT '{}',
  visitorFields TEXT NOT NULL DEFAULT '{}',
  customFieldIds TEXT,
  ndaText TEXT,
  localizedNdaText TEXT NOT NULL DEFAULT '{}',
  pictureMode TEXT CHECK (pictureMode IN ('off', 'optional', 'required')),
  requireAuthorization BIGINT,
  isActive BIGINT NOT NULL DEFAULT 1,
  sort BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX visitor_types_list ON visitor_types (companyId, sort) WHERE deletedAt IS NULL;
CREATE TABLE job_endpoints (
  companyId TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  failures BIGINT NOT NULL DEFAULT 0,
  openUntil BIGINT,
  cooldownMs BIGINT NOT NULL DEFAULT 0,
  updatedAt BIGINT NOT NULL,
  PRIMARY KEY (companyId, endpoint)
);
CREATE TABLE outgoing_policy (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  allowedDestinations TEXT NOT NULL DEFAULT '',
  updatedAt BIGINT NOT NULL
);
CREATE INDEX audit_log_credential ON audit_log (companyId, actorCredentialId);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TABLE privacy_erasures (
  id TEXT PRIMARY KEY,
  companyId TEXT NOT NULL REFERENCES companies (id) DEFERRABLE,
  createdAt BIGINT NOT NULL,
  -- JSON {"invitees": [ids], "visits": [ids], "visitors": [ids], "blocklist": [ids]}
  rowIds TEXT NOT NULL
);
CREATE INDEX privacy_erasures_company ON privacy_erasures (companyId, createdAt);

-- What the hub's processes keep in memory is checked against a version per request (the callers a key or session
-- names: credentials/store.ts); a write that changes what they keep moves the version on, in its transaction.
CREATE TABLE cache_versions (
  name TEXT PRIMARY KEY,
  version BIGINT NOT NULL
);
INSERT INTO cache_versions (name, version) VALUES ('callers', 0);
CREATE FUNCTION forget_callers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_versions SET version = version + 1 WHERE name = 'callers';
  RETURN NULL;
END $$;
CREATE TRIGGER forget_callers_companies AFTER INSERT OR UPDATE OR DELETE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION forget_callers();
CREATE TRIGGER forget_callers_credentials
  AFTER INSERT OR DELETE OR UPDATE OF companyId, role, keyHash, expiresAt, revokedAt ON credentials
  FOR EACH STATEMENT EXECUTE FUNCTION forget_callers();

-- The change feed (sync/feed.ts). Readers follow a company's entries by sequence number, so a number must never
-- become visible after a larger one of the same company has been read: each insert takes its company's lock until
-- its transaction ends, and only then draws its number (the column default, drawn before the lock, is replaced).
CREATE FUNCTION sync_changes_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('sync_changes:' || NEW.companyId));
  NEW.seq := nextval(pg_get_serial_sequence('sync_changes', 'seq'));
  RETURN NEW;
END $$;
CREATE TRIGGER sync_changes_in_order BEFORE INSERT ON sync_changes
  FOR EACH ROW EXECUTE FUNCTION sync_changes_in_order();

-- A feed table's trigger: the row's entry moves to the end of the feed (arguments: key column, company column).
CREATE FUNCTION sync_feed_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  written jsonb;
  gone BIGINT := 0;
BEGIN
  IF TG_OP = 'DELETE' THEN
    written := to_jsonb(OLD);
    gone := 1;
  ELSE
    written := to_jsonb(NEW);
  END IF;
  DELETE FROM sync_changes WHERE tableName = TG_TABLE_NAME AND rowKey = written ->> TG_ARGV[0];
  INSERT INTO sync_changes (tableName, rowKey, companyId, deleted)
    VALUES (TG_TABLE_NAME, written ->> TG_ARGV[0], written ->> TG_ARGV[1], gone);
  RETURN NULL;
END $$;
