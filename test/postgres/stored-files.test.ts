/**
 * Stored files on a hub of several processes: two `portaria serve` on one PostgreSQL database, each with its own
 * data folder (holding the same device.key), as on two machines. A file uploaded through one is served by the
 * other, and erased through either, because its bytes live in the database (local-api/files/bytes.ts).
 * Runs under `npm run test:postgres` (test/helpers/with-postgres.ts gives the server).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openPostgres } from '../../local-api/store/db.ts';
import { pdfBytes, pngBytes } from '../helpers/files.ts';
import { createDatabase } from '../helpers/postgres.ts';
import { client, removeDir, startService, type TestService, tempDir } from '../helpers/service.ts';

const server = process.env.PORTARIA_TEST_POSTGRES;
const skip = server ? false : 'needs PostgreSQL: run through npm run test:postgres (test/helpers/with-postgres.ts)';

describe('stored files on two hub processes of one database', { skip }, () => {
  let first: TestService;
  let second: TestService;
  let companyId: string;
  let apiKey: string;
  let database: string;

  /** How many files' bytes the database holds for the company. */
  const storedFiles = async () => {
    const db = await openPostgres(database);
    try {
      return (await db
        .prepare('SELECT count(*) FROM stored_files WHERE companyId = ?')
        .pluck()
        .get(companyId)) as number;
    } finally {
      await db.close();
    }
  };

  before(async () => {
    database = await createDatabase(server as string, `portaria_files_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
    first = await startService({ database });
    const secondDir = tempDir();
    copyFileSync(join(first.dataDir, 'device.key'), join(secondDir, 'device.key'));
    second = await startService({ dataDir: secondDir, database });
    ({ id: companyId, apiKey } = await first.company('Acme'));
  });
  after(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    for (const service of [first, second]) if (service) removeDir(service.dataDir);
  });

  const download = async (service: TestService, path: string, key?: string) => {
    const response = await fetch(service.url + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  test('a picture, an NDA and a logo written through one process are served by the other', async () => {
    const picture = pngBytes(5);
    const nda = await pdfBytes();
    const hostId = (await client(first.url, apiKey)('POST', '/v1/hosts', { name: 'Helena', email: 'helena@acme.test' }))
      .body.id;
    const visit = await client(first.url, apiKey)('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId },
      visitor: { name: 'Walter', email: 'walter@visitor.test' },
      visitPicture: picture.toString('base64'),
      visitNda: nda.toString('base64'),
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));

    const withKey = await download(second, visit.body.pictureUrl, apiKey);
    assert.deepEqual([withKey.status, withKey.type], [200, 'image/png']);
    assert.ok(withKey.bytes.equals(picture), 'the same bytes, from the other process');
    const signed = await download(second, visit.body.ndaSignedUrl);
    assert.deepEqual(
      [signed.status, signed.type],
      [200, 'application/pdf'],
      'a link one process signed opens on the other',
    );
    assert.ok(signed.bytes.equals(nda));

    const logo = pngBytes(3);
    const saved = await client(second.url, apiKey)('PUT', '/v1/company/logo', { picture: logo.toString('base64') });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const served = await download(first, saved.body.pictureUrl);
    assert.deepEqual([served.status, served.type], [200, 'image/png']);
    assert.ok(served.bytes.equals(logo));

    for (const service of [first, second]) {
      assert.equal(existsSync(join(service.dataDir, 'files')), false, 'no bytes in a data folder');
    }
    assert.equal(await storedFiles(), 3, 'the picture, the NDA and the logo, in the database');
  });

  test('a file replaced or erased through one process is gone from the other', async () => {
    const api = client(first.url, apiKey);
    const hostId = (await api('POST', '/v1/hosts', { name: 'Hugo', email: 'hugo@acme.test' })).body.id;
    const visit = (
      await api('POST', '/v1/visits', {
        visit: { id: randomUUID(), hostId },
        visitor: { name: 'Erin Erased', email: 'erin@visitor.test' },
        visitPicture: pngBytes(4).toString('base64'),
      })
    ).body;
    assert.equal((await download(second, visit.pictureUrl, apiKey)).status, 200);
    const before = (await storedFiles()) - 1;

    const replaced = await client(second.url, apiKey)('PATCH', `/v1/visit/${visit.id}`, {
      visitPicture: pngBytes(7).toString('base64'),
    });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.notEqual(replaced.body.pictureUrl, visit.pictureUrl);
    assert.equal((await download(first, visit.pictureUrl, apiKey)).status, 404, 'the replaced picture');
    assert.equal((await download(first, replaced.body.pictureUrl, apiKey)).status, 200);

    const erased = await client(second.url, apiKey)('POST', '/v1/privacy/erasure', { email: 'erin@visitor.test' });
    assert.deepEqual([erased.status, erased.body.files], [200, 1]);
    assert.equal((await download(first, replaced.body.pictureUrl, apiKey)).status, 404, 'the erased picture');
    assert.equal(
      (await download(first, replaced.body.pictureSignedUrl)).status,
      404,
      'nor by a link handed out before',
    );
    assert.equal(await storedFiles(), before, 'both pictures gone from the database');
  });
});
