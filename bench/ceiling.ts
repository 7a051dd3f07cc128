/**
 * The stack's own ceiling: Express 5 and better-sqlite3 with Portaria's settings (WAL, synchronous=FULL, the same
 * JSON body parser) doing only the storage work each hot endpoint needs, without authentication, validation or
 * the visit object. Portaria ÷ this server says how much of what the stack can do Portaria keeps.
 *
 *   node --import tsx bench/ceiling.ts --db <portaria.db> [--port 0]
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import express from 'express';

const { values } = parseArgs({ options: { db: { type: 'string' }, port: { type: 'string', default: '0' } } });
if (!values.db) throw new Error('ceiling needs --db');

const db = new Database(values.db);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
const { id: companyId } = db.prepare('SELECT id FROM companies LIMIT 1').get() as { id: string };

const visitById = db.prepare('SELECT * FROM visits WHERE id = ?');
// The rows are the ones Portaria stores (same columns, so the same index entries): the storage work is equal.
const insertWalkIn = db.prepare(
  `INSERT INTO visits (id, companyId, createdAt, updatedAt, name, checkinAt, checkinType, cardNumber, isInsideCompany)
   VALUES (?, ?, ?, ?, ?, ?, 'API', ?, 1)`,
);
const insertInviteeVisit = db.prepare(
  `INSERT INTO visits (id, companyId, createdAt, updatedAt, inviteeId, hostId, meetingId, name, email, phone, cpf, rg,
     document, address, company, position, sector, notes, cardNumber, expectedAt, checkinAt, checkinType,
     authorizationStatus, isInsideCompany, customFields)
   SELECT ?, companyId, ?, ?, id, hostId, meetingId, name, email, phone, cpf, rg, document, address, company,
     position, sector, notes, CAST(cardNumber AS TEXT), expectedAt, ?, 'INVITES',
     CASE requiresAuthorization WHEN 1 THEN 'AWAITING' END, 1, customFields
   FROM invitees WHERE id = ?`,
);
const markArrived = db.prepare("UPDATE invitees SET status = 'arrived', updatedAt = ? WHERE id = ?");
const checkOut = db.prepare(
  `UPDATE visits SET checkoutAt = ?, isInsideCompany = 0, checkoutType = 'API', checkoutByHostId = NULL,
     checkoutByIpadId = NULL, updatedAt = ? WHERE id = ?`,
);

// Transaction functions made once, as the stack is best used (each db.transaction() call builds its wrappers).
const walkIn = db.transaction((id: string, name: string, now: number, cardNumber: string) =>
  insertWalkIn.run(id, companyId, now, now, name, now, cardNumber),
);
const inviteeCheckin = db.transaction((id: string, inviteeId: string, now: number) => {
  const inserted = insertInviteeVisit.run(id, now, now, now, inviteeId).changes === 1;
  if (inserted) markArrived.run(now, inviteeId);
  return inserted;
});
const checkout = db.transaction((id: string, now: number) => checkOut.run(now, now, id).changes === 1);

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json());

// One row read by primary key.
app.get('/v1/visit/:id', (req, res) => {
  const row = visitById.get(req.params.id);
  if (row) res.json(row);
  else res.status(404).json({ type: 'NOT_FOUND' });
});

// One row inserted in one transaction.
app.post('/v1/visits', (req, res) => {
  const { visit, visitor } = req.body as { visit: { id: string }; visitor: { name: string } };
  const now = Date.now();
  const cardNumber = String(randomInt(1, 2 ** 31));
  walkIn.immediate(visit.id, visitor.name, now, cardNumber);
  res.json({ id: visit.id, name: visitor.name, checkinAt: now, cardNumber });
});

// The invitee read by primary key into its visit, and marked arrived, in one transaction.
app.post('/v1/visit/inviteeCheckin/:id', (req, res) => {
  const now = Date.now();
  const id = randomUUID();
  if (inviteeCheckin.immediate(id, req.params.id, now)) res.json({ id, inviteeId: req.params.id, checkinAt: now });
  else res.status(404).json({ type: 'INVITEE_NOT_FOUND' });
});

// One row updated by primary key in one transaction.
app.patch('/v1/visit/checkout/:id', (req, res) => {
  const now = Date.now();
  if (checkout.immediate(req.params.id, now)) res.json({ id: req.params.id, checkoutAt: now });
  else res.status(404).json({ type: 'NOT_FOUND' });
});

const server = app.listen(Number(values.port), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`Ceiling listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => {
    db.close();
    process.exit(0);
  });
  server.closeAllConnections();
});
