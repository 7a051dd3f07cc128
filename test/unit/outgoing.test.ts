import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { channels } from '../../local-api/notifications/channels.ts';
import type { NotificationSettings } from '../../local-api/notifications/settings.ts';
import { type DestinationPolicy, parseCidr, parseCidrList, refusalOf } from '../../local-api/outgoing/destinations.ts';
import { connectChecked, OutgoingError, openStream, sendRequest } from '../../local-api/outgoing/request.ts';
import { attemptTimeoutMs } from '../../local-api/webhooks/delivery.ts';
import { testContext } from '../helpers/context.ts';

const kiosk: DestinationPolicy = { allowPrivate: true, allowed: [], ownPorts: [4780], ownAddresses: ['192.168.1.5'] };
const sharedHub: DestinationPolicy = { ...kiosk, allowPrivate: false };

describe('the destination policy', () => {
  test('unspecified, link-local and metadata addresses are refused everywhere, in every spelling', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '::',
      '169.254.169.254',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '2002:a9fe:a9fe::1',
      'fe80::1',
      'fe80::1%eth0',
      'fd00:ec2::254',
      '100.100.100.200',
      '224.0.0.1',
      '255.255.255.255',
      'ff02::1',
    ]) {
      assert.notEqual(refusalOf(kiosk, address, 80), undefined, address);
      assert.notEqual(refusalOf(sharedHub, address, 80), undefined, address);
    }
  });

  test("the service's own port is refused on loopback and its own addresses, however written", () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '192.168.1.5']) {
      assert.equal(refusalOf(kiosk, address, 4780), 'own-port', address);
    }
    assert.equal(refusalOf(kiosk, '127.0.0.1', 8080), undefined, 'another port on loopback');
    assert.equal(refusalOf(kiosk, '192.168.1.6', 4780), undefined, 'another machine on the LAN');
  });

  test('loopback and the LAN: allowed on a kiosk, refused on a shared hub unless the owner allows them', () => {
    const local = [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.0.20',
      '100.64.1.1',
      'fd12::1',
      '::ffff:10.0.0.1',
    ];
    for (const address of local) {
      assert.equal(refusalOf(kiosk, address, 80), undefined, address);
      assert.equal(refusalOf(sharedHub, address, 80), 'private', address);
    }
    const owner = parseCidrList('10.0.0.0/8, 192.168.0.20');
    assert.ok(owner.ok);
    const allowing = { ...sharedHub, allowed: owner.cidrs };
    assert.equal(refusalOf(allowing, '10.200.0.1', 80), undefined);
    assert.equal(refusalOf(allowing, '192.168.0.20', 80), undefined);
    assert.equal(refusalOf(allowing, '192.168.0.21', 80), 'private');
    assert.equal(refusalOf(sharedHub, '8.8.8.8', 443), undefined, 'the internet');
    assert.equal(refusalOf(sharedHub, '2001:4860::8888', 443), undefined, 'the internet');
  });

  test('ranges are parsed strictly', () => {
    assert.equal(parseCidr('10.0.0.0/8')?.bits, 104);
    assert.equal(parseCidr('fd00::/8')?.bits, 8);
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fd00::/129', 'example.com', '10.0.0.0/8/1', '1::2::3']) {
      assert.equal(parseCidr(bad), undefined, bad);
    }
    assert.deepEqual(parseCidrList('10.0.0.0/8,nope'), { ok: false, bad: 'nope' });
  });
});

describe('requests under the policy and a deadline', () => {
  let listener: Server;
  let port: number;
  let connections = 0;
  const sockets: Socket[] = [];
  before(async () => {
    // Accepts and never answers.
    listener = createServer((socket) => {
      connections++;
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof OutgoingError, String(error));
    return error;
  };

  test('spellings of loopback and names resolving to it are refused on a shared hub before any connection', async () => {
    const hosts = [
      '127.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      'localhost',
    ];
    for (const host of hosts) {
      const error = await refusal(
        sendRequest(sharedHub, { url: `http://${host}:${port}/`, deadlineMs: 2_000, maxResponseBytes: 0 }),
      );
      assert.equal(error.kind, 'refused-destination', host);
      assert.equal(error.message, 'the destination is not allowed on this device');
    }
    for (const host of ['127.1', '2130706433', '::ffff:127.0.0.1', 'localhost', '0.0.0.0']) {
      const error = await refusal(connectChecked(sharedHub, host, port, 2_000));
      assert.equal(error.kind, 'refused-destination', host);
    }
    for (const url of [
      'http://0.0.0.0/',
      'http://[::]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
    ]) {
      assert.equal(
        (await refusal(sendRequest(kiosk, { url, deadlineMs: 2_000, maxResponseBytes: 0 }))).kind,
        'refused-destination',
        url,
      );
    }
    const ownPort = { ...kiosk, ownPorts: [port] };
    for (const host of ['localhost', '127.0.0.1', '[::ffff:127.0.0.1]']) {
      const error = await refusal(
        sendRequest(ownPort, { url: `http://${host}:${port}/`, deadlineMs: 2_000, maxResponseBytes: 0 }),
      );
      assert.equal(error.kind, 'refused-destination', host);
    }
    assert.equal(connections, 0, 'no connection was made');
  });

  test('a peer that accepts and never answers is given up at the deadline', async () => {
    const started = Date.now();
    const error = await refusal(
      sendRequest(kiosk, { url: `http://localhost:${port}/`, deadlineMs: 400, maxResponseBytes: 0 }),
    );
    const took = Date.now() - started;
    assert.equal(error.kind, 'timeout');
    assert.ok(took >= 390 && took < 1_500, `gave up after ${took} ms`);
    assert.ok(connections >= 1, 'the connection was made (allowed on a kiosk)');
    const early = await refusal(
      sendRequest(kiosk, {
        url: `http://127.0.0.1:${port}/`,
        headersDeadlineMs: 200,
        deadlineMs: 60_000,
        maxResponseBytes: 0,
      }),
    );
    assert.equal(early.kind, 'timeout');
  });

  test('a peer that answers its headers, then trickles its body, is given up at the deadline', async () => {
    const trickle = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const url = `http://127.0.0.1:${(trickle.address() as { port: number }).port}/`;
      const error = await refusal(sendRequest(kiosk, { url, deadlineMs: 600, maxResponseBytes: 1_000_000 }));
      assert.equal(error.kind, 'timeout');
      assert.ok(Date.now() - started < 1_500);
    } finally {
      trickle.closeAllConnections();
      await new Promise((resolve) => trickle.close(resolve));
    }
  });

  test('an SMTP server that trickles its greeting for ever is given up at the deadline', async () => {
    const smtp = createServer((socket) => {
      const drip = setInterval(() => socket.write('220-still greeting\r\n'), 500);
      socket.on('close', () => clearInterval(drip));
      socket.on('error', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const ctx = await testContext();
    try {
      const started = Date.now();
      const settings: NotificationSettings = {
        smtpHost: '127.0.0.1',
        smtpPort: (smtp.address() as { port: number }).port,
        smtpSecurity: 'none',
        smtpUsername: '',
        smtpPassword: '',
        emailFrom: '',
        webhookUrl: '',
        webhookSecret: '',
        slackWebhookUrl: '',
        teamsWebhookUrl: '',
        twilioAccountSid: '',
        twilioAuthToken: '',
        twilioFrom: '',
        twilioBaseUrl: 'https://api.twilio.com',
        reminderMinutesBefore: 15,
        escalateAfterMinutes: 0,
        receptionEmail: '',
        createdAt: 0,
        updatedAt: 0,
      };
      const delivery = { key: 'k', to: ['host@acme.test'], subject: 's', text: 't', body: {} };
      const error = await channels.email.send(ctx, settings, delivery, new AbortController().signal).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const took = Date.now() - started;
      assert.equal(error?.message, `cannot reach SMTP 127.0.0.1:${settings.smtpPort}`);
      assert.ok(took >= attemptTimeoutMs - 100 && took < attemptTimeoutMs + 1_500, `gave up after ${took} ms`);
    } finally {
      await ctx.db.close();
      await new Promise((resolve) => smtp.close(resolve));
    }
  });
});

describe('an event stream from a peer (openStream)', () => {
  let peer: ReturnType<typeof createHttpServer>;
  let url: string;
  before(async () => {
    // Answers the headers and one line, then says nothing more: a hub whose heartbeat stopped (a half-open link).
    peer = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(peer.address() as { port: number }).port}/`;
  });
  after(() => {
    peer.closeAllConnections();
    peer.close();
  });

  test('ends once the peer is silent past the idle time, having passed on what came before', async () => {
    const stream = await openStream(kiosk, {
      url,
      headersDeadlineMs: 2_000,
      idleMs: 300,
      signal: new AbortController().signal,
    });
    assert.equal(stream.status, 200);
    let received = '';
    stream.onData((text) => {
      received += text;
    });
    await stream.ended;
    assert.equal(received, ': hello\n\n');
  });

  test('ends when the service stops (its signal), and never reaches a refused address', async () => {
    const stopping = new AbortController();
    const stream = await openStream(kiosk, { url, headersDeadlineMs: 2_000, idleMs: 60_000, signal: stopping.signal });
    stopping.abort();
    await stream.ended;
    await assert.rejects(
      openStream(kiosk, {
        url: 'http://169.254.169.254/',
        headersDeadlineMs: 2_000,
        idleMs: 60_000,
        signal: new AbortController().signal,
      }),
      (error) => error instanceof OutgoingError && error.kind === 'refused-destination',
    );
  });
});
