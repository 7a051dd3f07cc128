import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { jpegBytes, pdfBytes, pngBytes } from '../helpers/files.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { storedFileNames } from '../helpers/store.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let companyId: string;
let hostId: string;
let pdf: Buffer;

const fiveMb = 5 * 1024 * 1024;
const tenMb = 10 * 1024 * 1024;
const b64 = (bytes: Buffer) => bytes.toString('base64');

before(async () => {
  service = await startService();
  const company = await service.company('Acme', 'America/Sao_Paulo');
  companyId = company.id;
  api = client(service.url, company.apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena', email: 'helena@acme.test' })).body.id;
  pdf = await pdfBytes();
});
after(() => service.stop());

/** A PDF of exactly `size` bytes. */
const paddedPdf = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n%'), Buffer.alloc(size - 17, 0x20), Buffer.from('\n%%EOF\n')]);

/** PUT of a file sent as itself, with the key. */
async function put(path: string, bytes: Buffer, type: string) {
  const response = await fetch(service.url + path, {
    method: 'PUT',
    headers: { authorization: (await keyHeader(api)) ?? '', 'content-type': type },
    body: new Uint8Array(bytes),
  });
  return { status: response.status, body: await response.json() };
}

const walkIn = (extra: Record<string, unknown>, visitor: Record<string, unknown> = {}, id = randomUUID()) =>
  api('POST', '/v1/visits', { visit: { id, hostId }, visitor: { name: 'Walter', ...visitor }, ...extra });

/** Downloads a file path, with the key unless told otherwise. */
async function download(path: string, key: 'mine' | 'other' | 'none' = 'mine') {
  const call = key === 'mine' ? api : key === 'other' ? other : client(service.url);
  const response = await fetch(service.url + path, {
    headers: key === 'none' ? {} : { authorization: (await keyHeader(call)) ?? '' },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** The authorization header a client helper sends (read back from a request it makes). */
async function keyHeader(call: ReturnType<typeof client>): Promise<string | undefined> {
  let header: string | undefined;
  const original = globalThis.fetch;
  globalThis.fetch = (async (_url: string, init: RequestInit) => {
    header = (init.headers as Record<string, string>).authorization;
    return new Response('{}');
  }) as typeof fetch;
  try {
    await call('GET', '/');
  } finally {
    globalThis.fetch = original;
  }
  return header;
}

const storedFiles = async () => await storedFileNames(service.dataDir, companyId);

describe('visit picture and NDA', () => {
  test('are stored as files and exposed as key-protected URLs and short-lived signed links', async () => {
    const picture = pngBytes(4);
    const { status, body } = await walkIn({ visitPicture: b64(picture), visitNda: b64(pdf) });
    assert.equal(status, 200);
    assert.match(body.pictureUrl, /^\/v1\/files\/[0-9a-f]{32}\.png$/);
    assert.match(body.ndaUrl, /^\/v1\/files\/[0-9a-f]{32}\.pdf$/);
    assert.match(body.pictureSignedUrl, /^\/v1\/files\/[0-9a-f]{32}\.png\?expires=\d+&signature=[\w-]+$/);
    assert.ok(body.pictureSignedUrl.startsWith(body.pictureUrl));

    const withKey = await download(body.pictureUrl);
    assert.deepEqual([withKey.status, withKey.type], [200, 'image/png']);
    assert.ok(withKey.bytes.equals(picture), 'the bytes come back as sent');
    const nda = await download(body.ndaUrl);
    assert.deepEqual([nda.status, nda.type], [200, 'application/pdf']);
    assert.ok(nda.bytes.equals(pdf));

    assert.equal((await download(body.pictureUrl, 'none')).status, 401, 'no key, no signature');
    assert.equal((await download(body.pictureUrl, 'other')).status, 404, "another company's key");
    const signed = await download(body.pictureSignedUrl, 'none');
    assert.deepEqual([signed.status, signed.type], [200, 'image/png']);
    assert.ok(signed.bytes.equals(picture));
    const tampered = body.pictureSignedUrl
      .replace(/signature=./, 'signature=A')
      .replace('signature=AA', 'signature=AB');
    assert.equal((await download(tampered, 'none')).status, 401);
    const otherFile = body.ndaUrl + body.pictureSignedUrl.slice(body.pictureUrl.length);
    assert.equal((await download(otherFile, 'none')).status, 401, 'a signature opens only its own file');
    const later = body.pictureSignedUrl.replace(
      /expires=(\d+)/,
      (_: string, s: string) => `expires=${Number(s) + 3600}`,
    );
    assert.equal((await download(later, 'none')).status, 401, 'the expiry is signed');
    assert.equal((await download('/v1/files/../portaria.db')).status, 404);
    assert.equal((await download(`/v1/files/${'0'.repeat(32)}.png`)).status, 404);

    assert.deepEqual((await api('GET', `/v1/visit/${body.id}`)).body.pictureUrl, body.pictureUrl);
  });

  test('JPEG pictures and data: URLs are accepted', async () => {
    const jpeg = await walkIn({ visitPicture: `data:image/jpeg;base64,${b64(jpegBytes())}` });
    assert.match(jpeg.body.pictureUrl, /\.jpg$/);
    assert.equal((await download(jpeg.body.pictureUrl)).type, 'image/jpeg');
  });

  test('pictures and NDAs are checked by their bytes', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ visitPicture: b64(gif) }, { type: 'INVALID_PICTURE', field: 'visitPicture' }],
      [{ visitPicture: b64(pdf) }, { type: 'INVALID_PICTURE', field: 'visitPicture' }],
      [{ visitPicture: b64(jpegBytes().subarray(0, 40)) }, { type: 'INVALID_PICTURE', field: 'visitPicture' }],
      [{ visitPicture: b64(pngBytes(8).subarray(0, 50)) }, { type: 'INVALID_PICTURE', field: 'visitPicture' }],
      [{ visitPicture: 'not base64 at all!' }, { type: 'INVALID_PICTURE', field: 'visitPicture' }],
      [{ visitPicture: 12 }, { type: 'INVALID_PICTURE' }],
      [{ visitNda: b64(pngBytes()) }, { type: 'INVALID_NDA', field: 'visitNda' }],
      [{ visitNda: b64(pdf.subarray(0, pdf.length - 10)) }, { type: 'INVALID_NDA', field: 'visitNda' }],
      [{ visitNda: b64(Buffer.from('%PDF-1.7 but not really')) }, { type: 'INVALID_NDA', field: 'visitNda' }],
    ];
    const before = (await storedFiles()).length;
    for (const [extra, error] of cases) {
      const reply = await walkIn(extra);
      assert.deepEqual([reply.status, reply.body], [400, error], JSON.stringify(extra).slice(0, 80));
    }
    assert.equal((await storedFiles()).length, before, 'a refused check-in leaves no file');
  });

  test('pictures up to 5 MB and NDAs up to 10 MB; larger ones are 413 PAYLOAD_TOO_LARGE', async () => {
    // In JSON, files share the body's limit (2 MiB): a picture or NDA of 1.5 MB; larger ones travel as themselves.
    assert.equal((await walkIn({ visitPicture: b64(pngBytes(2, 1_500_000)) })).status, 200);
    assert.equal((await walkIn({ visitNda: b64(paddedPdf(1_500_000)) })).status, 200);
    const inJson = await walkIn({ visitPicture: b64(pngBytes(2, fiveMb)) });
    assert.deepEqual([inJson.status, inJson.body], [413, { type: 'PAYLOAD_TOO_LARGE', maxBytes: 2 * 2 ** 20 }]);
    const visit = (await walkIn({})).body;
    for (const [path, bytes, type, limit] of [
      [`/v1/visit/${visit.id}/picture`, pngBytes(2, fiveMb), 'image/png', fiveMb],
      [`/v1/visit/${visit.id}/nda`, paddedPdf(tenMb), 'application/pdf', tenMb],
    ] as const) {
      const at = await put(path, bytes, type);
      assert.equal(at.status, 200, JSON.stringify(at.body));
      const over = await put(path, Buffer.concat([bytes, Buffer.from(' ')]), type);
      assert.deepEqual([over.status, over.body], [413, { type: 'PAYLOAD_TOO_LARGE', maxBytes: limit }], path);
    }
  });

  test('pictures and NDAs sent as themselves: PUT /v1/visit/:id/picture, /nda and /v1/invitee/:id/picture', async () => {
    const visit = (await walkIn({})).body;
    const picture = jpegBytes();
    const set = await put(`/v1/visit/${visit.id}/picture`, picture, 'image/jpeg');
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.match(set.body.pictureUrl, /^\/v1\/files\/[0-9a-f]{32}\.jpg$/);
    assert.deepEqual((await download(set.body.pictureUrl)).bytes, picture);
    // A new picture replaces the old one, whose file is gone.
    const replaced = await put(`/v1/visit/${visit.id}/picture`, pngBytes(4), 'image/png; charset=binary');
    assert.match(replaced.body.pictureUrl, /\.png$/);
    assert.equal((await download(set.body.pictureUrl)).status, 404);
    const nda = await put(`/v1/visit/${visit.id}/nda`, pdf, 'application/pdf');
    assert.deepEqual((await download(nda.body.ndaUrl)).bytes, pdf);
    assert.equal(nda.body.pictureUrl, replaced.body.pictureUrl, 'the picture stays');

    const invitee = (
      await api('POST', '/v1/invitees', {
        name: 'Ines',
        email: 'ines@acme.test',
        hostId,
        expectedAt: '2026-12-01T10:00',
      })
    ).body;
    const invited = await put(`/v1/invitee/${invitee.id}/picture`, picture, 'image/jpeg');
    assert.equal(invited.status, 200, JSON.stringify(invited.body));
    assert.deepEqual((await download(invited.body.pictureUrl)).bytes, picture);

    for (const [path, bytes, type, answer] of [
      [`/v1/visit/${visit.id}/picture`, pdf, 'application/pdf', [415, { type: 'UNSUPPORTED_MEDIA_TYPE' }]],
      [`/v1/visit/${visit.id}/picture`, pdf, 'image/png', [400, { type: 'INVALID_PICTURE', field: 'visitPicture' }]],
      [`/v1/visit/${visit.id}/nda`, picture, 'application/pdf', [400, { type: 'INVALID_NDA', field: 'visitNda' }]],
      [
        `/v1/visit/${visit.id}/picture`,
        Buffer.alloc(0),
        'image/jpeg',
        [400, { type: 'INVALID_PICTURE', field: 'visitPicture' }],
      ],
      [`/v1/visit/${randomUUID()}/picture`, picture, 'image/jpeg', [404, { type: 'NOT_FOUND' }]],
    ] as const) {
      const reply = await put(path, bytes, type);
      assert.deepEqual([reply.status, reply.body], answer, `${path} ${type}`);
    }
    const foreign = await fetch(`${service.url}/v1/visit/${visit.id}/picture`, {
      method: 'PUT',
      headers: { authorization: (await keyHeader(other)) ?? '', 'content-type': 'image/jpeg' },
      body: new Uint8Array(picture),
    });
    assert.equal(foreign.status, 404, "another company's visit is not found");
  });

  test('a retried check-in with the same id stores its picture once', async () => {
    const id = randomUUID();
    const before = (await storedFiles()).length;
    const first = await walkIn({ visitPicture: b64(pngBytes(3)) }, {}, id);
    const second = await walkIn({ visitPicture: b64(pngBytes(3)) }, {}, id);
    assert.equal(second.body.pictureUrl, first.body.pictureUrl);
    assert.equal((await storedFiles()).length, before + 1);
  });

  test('PATCH replaces or removes the files; a replaced file is gone', async () => {
    const { body: visit } = await walkIn({ visitPicture: b64(pngBytes(2)) });
    const oldName = basename(visit.pictureUrl);
    const replaced = await api('PATCH', `/v1/visit/${visit.id}`, {
      visitPicture: b64(jpegBytes()),
      visitNda: b64(pdf),
    });
    assert.equal(replaced.status, 200);
    assert.match(replaced.body.pictureUrl, /\.jpg$/);
    assert.match(replaced.body.ndaUrl, /\.pdf$/);
    assert.equal((await download(visit.pictureUrl)).status, 404);
    assert.equal((await storedFiles()).includes(oldName), false);
    const removed = await api('PATCH', `/v1/visit/${visit.id}`, { visitPicture: null });
    assert.equal(removed.body.pictureUrl, null);
    assert.equal(removed.body.pictureSignedUrl, null);
    assert.equal(removed.body.ndaUrl, replaced.body.ndaUrl);
    const bad = await api('PATCH', `/v1/visit/${visit.id}`, { visitNda: b64(pngBytes()) });
    assert.deepEqual(bad.body, { type: 'INVALID_NDA', field: 'visitNda' });
  });

  test('an invitee check-in takes a picture and an NDA too', async () => {
    const invitee = (
      await api('POST', '/v1/invitees', {
        name: 'Iris',
        email: 'iris@guest.test',
        hostId,
        expectedAt: '2026-12-01T10:00:00',
      })
    ).body;
    const visit = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {
      visitPicture: b64(jpegBytes()),
      visitNda: b64(pdf),
    });
    assert.equal(visit.status, 200);
    assert.match(visit.body.pictureUrl, /\.jpg$/);
    assert.equal((await download(visit.body.ndaUrl)).status, 200);
  });
});

describe('invitee pictureUrl', () => {
  const invite = (pictureUrl: unknown) =>
    api('POST', '/v1/invitees', {
      name: 'Pia',
      email: `pia-${randomUUID()}@guest.test`,
      hostId,
      expectedAt: 1_800_000_000,
      pictureUrl,
    });

  test('Base64 is stored as a file; a URL is kept as it is; the own path changes nothing', async () => {
    const stored = (await invite(b64(pngBytes(5)))).body;
    assert.match(stored.pictureUrl, /^\/v1\/files\/[0-9a-f]{32}\.png$/);
    assert.match(stored.pictureSignedUrl, /signature=/);
    assert.equal((await download(stored.pictureUrl)).status, 200);

    const sameBack = await api('PATCH', `/v1/invitee/${stored.id}`, {
      pictureUrl: stored.pictureSignedUrl,
      notes: 'x',
    });
    assert.equal(sameBack.body.pictureUrl, stored.pictureUrl);

    const url = await api('PATCH', `/v1/invitee/${stored.id}`, { pictureUrl: 'https://cdn.example.test/pia.jpg' });
    assert.equal(url.body.pictureUrl, 'https://cdn.example.test/pia.jpg');
    assert.equal(url.body.pictureSignedUrl, null);
    assert.equal((await download(stored.pictureUrl)).status, 404, 'the replaced file is retired');

    const linked = (await invite('https://cdn.example.test/other.png')).body;
    assert.equal(linked.pictureUrl, 'https://cdn.example.test/other.png');
  });

  test('anything else must be a JPEG or PNG', async () => {
    assert.deepEqual((await invite(b64(pdf))).body, { type: 'INVALID_PICTURE', field: 'pictureUrl' });
    assert.deepEqual((await invite('/v1/files/elsewhere.png')).body, { type: 'INVALID_PICTURE', field: 'pictureUrl' });
    assert.deepEqual((await invite(b64(pngBytes(2, fiveMb + 10)))).status, 413);
  });
});

describe('visitors', () => {
  test('a returning visitor is recognized by e-mail, CPF or document and counted', async () => {
    const first = (await walkIn({}, { name: 'Rita Returning', email: 'Rita@Visitor.test', company: 'Hooli' })).body;
    assert.match(first.visitorId, /^[0-9a-f]{32}$/);
    const byEmail = (await walkIn({}, { name: 'Rita R.', email: 'rita@visitor.test', cpf: '529.982.247-25' })).body;
    assert.equal(byEmail.visitorId, first.visitorId);
    const byCpf = (await walkIn({}, { name: 'Rita', cpf: '52998224725', document: 'P-778' })).body;
    assert.equal(byCpf.visitorId, first.visitorId);
    const byDocument = (await walkIn({}, { name: 'R', document: 'p 778' })).body;
    assert.equal(byDocument.visitorId, first.visitorId);
    const stranger = (await walkIn({}, { name: 'Stan', email: 'stan@visitor.test' })).body;
    assert.notEqual(stranger.visitorId, first.visitorId);

    const visitor = (await api('GET', `/v1/visitor/${first.visitorId}`)).body;
    assert.equal(visitor.type, 'visitor');
    assert.equal(visitor.visitCount, 4);
    assert.equal(visitor.name, 'R', 'the newest data wins');
    assert.equal(visitor.email, 'rita@visitor.test');
    assert.equal(visitor.company, 'Hooli', 'absent fields keep their value');
    assert.equal(visitor.cpf, '52998224725');
    assert.match(visitor.lastVisitAt, /-03:00$/);
    assert.equal('emailKey' in visitor, false);

    const listed = await api('GET', '/v1/visitors?queryKey=email&queryOp===&queryValue=rita@visitor.test');
    assert.deepEqual(
      listed.body.visitors.map((v: { id: string }) => v.id),
      [first.visitorId],
    );
    const visits = await api('GET', `/v1/visits?queryKey=visitorId&queryOp===&queryValue=${first.visitorId}`);
    assert.equal(visits.status, 404, 'visitorId is not a visit query key');
  });

  test('a check-in naming a visitor uses it; an unknown one is VISITOR_NOT_FOUND', async () => {
    const first = (await walkIn({}, { name: 'Vic', email: 'vic@visitor.test' })).body;
    const named = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), visitorId: first.visitorId },
      visitor: { name: 'Vic (no e-mail this time)' },
    });
    assert.equal(named.body.visitorId, first.visitorId);
    const unknown = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), visitorId: 'f'.repeat(32) },
      visitor: { name: 'X' },
    });
    assert.deepEqual([unknown.status, unknown.body], [400, { type: 'VISITOR_NOT_FOUND' }]);
    const foreign = await other('POST', '/v1/visits', {
      visit: { id: randomUUID(), visitorId: first.visitorId },
      visitor: { name: 'X' },
    });
    assert.deepEqual(foreign.body, { type: 'VISITOR_NOT_FOUND' });
  });

  test('an invitee’s check-in links the visitor too; DELETE forgets the record, not the visits', async () => {
    const walk = (await walkIn({}, { name: 'Ines', email: 'ines@visitor.test' })).body;
    const invitee = (
      await api('POST', '/v1/invitees', { name: 'Ines', email: 'INES@visitor.test', hostId, expectedAt: 1_800_000_000 })
    ).body;
    const visit = (await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`)).body;
    assert.equal(visit.visitorId, walk.visitorId);
    assert.deepEqual((await api('DELETE', `/v1/visitor/${walk.visitorId}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/visitor/${walk.visitorId}`)).status, 404);
    assert.equal((await other('GET', `/v1/visitor/${visit.visitorId}`)).status, 404);
    assert.equal((await api('GET', `/v1/visit/${visit.id}`)).body.name, 'Ines');
    assert.deepEqual((await api('GET', '/v1/visitor/')).body, { type: 'MISSING_ID' });
  });
});

describe('erasure (privacy)', () => {
  test('erasing a visitor deletes their picture and NDA files and forgets their visitor record', async () => {
    const visit = (
      await walkIn(
        { visitPicture: b64(pngBytes(6)), visitNda: b64(pdf) },
        { name: 'Erin Erased', email: 'erin@visitor.test', cpf: '111.444.777-35' },
      )
    ).body;
    const invitee = (
      await api('POST', '/v1/invitees', {
        name: 'Erin',
        email: 'erin@visitor.test',
        hostId,
        expectedAt: 1_800_000_000,
        pictureUrl: b64(jpegBytes()),
      })
    ).body;
    const names = [visit.pictureUrl, visit.ndaUrl, invitee.pictureUrl].map((url: string) => basename(url));
    const before = await storedFiles();
    assert.ok(names.every((name) => before.includes(name)));

    const erased = await api('POST', '/v1/privacy/erasure', { email: 'erin@visitor.test' });
    assert.equal(erased.status, 200);
    assert.equal(erased.body.files, 3);
    const left = await storedFiles();
    assert.deepEqual(
      names.filter((name) => left.includes(name)),
      [],
      'the bytes are gone',
    );
    assert.equal(
      (await download(visit.pictureSignedUrl, 'none')).status,
      404,
      'a link handed out before finds nothing',
    );
    assert.equal((await api('GET', `/v1/visitor/${visit.visitorId}`)).status, 404);
    const listed = await api('GET', '/v1/visitors?queryKey=email&queryOp===&queryValue=erin@visitor.test');
    assert.equal(listed.body.size, 0);
    const again = (await walkIn({}, { name: 'Erin', email: 'erin@visitor.test' })).body;
    assert.notEqual(again.visitorId, visit.visitorId, 'the person is not recognized any more');
  });
});

describe('how the NDA was signed', () => {
  test('is recorded as DRAWN or TYPED at a walk-in and an invitee check-in, null when not said; nothing else', async () => {
    const typed = await walkIn({ visitNda: b64(pdf) }, {}, randomUUID());
    assert.equal(typed.body.ndaSignature, null, 'not said: not recorded');
    const id = randomUUID();
    const created = await api('POST', '/v1/visits', {
      visit: { id, hostId, ndaSignature: 'typed' },
      visitor: { name: 'Tânia Teclado' },
      visitNda: b64(pdf),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.ndaSignature, 'TYPED');
    assert.equal((await api('GET', `/v1/visit/${id}`)).body.ndaSignature, 'TYPED');
    const refused = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId, ndaSignature: 'stamped' },
      visitor: { name: 'Sérgio Selo' },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual([refused.body.type, refused.body.field], ['INVALID_PARAMETER', 'visit.ndaSignature']);

    const invitee = await api('POST', '/v1/invitees', {
      name: 'Dora Desenho',
      email: 'dora@guest.test',
      expectedAt: new Date().toISOString(),
      hostId,
    });
    const checkin = await api('POST', `/v1/visit/inviteeCheckin/${invitee.body.id}`, {
      id: randomUUID(),
      visitNda: b64(pdf),
      ndaSignature: 'DRAWN',
    });
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    assert.equal(checkin.body.ndaSignature, 'DRAWN');
  });

  test("the kiosk's walk-in records it too", async () => {
    const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
    const kiosk = client(service.url, session.apiKey);
    const id = randomUUID();
    const checkin = await kiosk('POST', '/v1/kiosk/walkin', {
      visit: { id, hostId, ndaSignature: 'TYPED' },
      visitor: { name: 'Quim Quadro' },
      visitNda: b64(pdf),
    });
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    assert.equal((await api('GET', `/v1/visit/${id}`)).body.ndaSignature, 'TYPED');
  });
});
