import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Stand-ins for the services the notification channels post to, on 127.0.0.1: each checks a request against the
 * format the real service documents and answers as that service does, so a channel that drifts from the format
 * fails its test rather than a host's message in production.
 * - Slack incoming webhooks: docs.slack.dev/messaging/sending-messages-using-incoming-webhooks and the Block Kit
 *   reference (blocks, button elements, text objects and their limits). Answers `ok` (200), `invalid_blocks` (400).
 * - Microsoft Teams Workflows ("Post to a channel when a webhook request is received") and incoming webhooks: a
 *   `message` with an Adaptive Card attachment (adaptivecards.io schema). Workflows answers 202 Accepted.
 * - Twilio's Messages resource (POST /2010-04-01/Accounts/{AccountSid}/Messages.json): form fields To, From, Body,
 *   HTTP Basic authentication with the account SID and auth token; 201 with the Message resource (`queued`), Twilio's
 *   error JSON (`code`, `message`, `more_info`, `status`) otherwise.
 */

/** A request a stand-in received, with the problems it found in it (none when the format was right). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The JSON body, or the form's fields (Twilio). */
  body: unknown;
  problems: string[];
}

export interface StandIn {
  url: string;
  /** Every request received, well-formed or not. */
  received: ReceivedRequest[];
  /** The requests it accepted. */
  accepted(): ReceivedRequest[];
  /** Resolves once `count` requests were accepted; rejects after `timeoutMs` (a missing message fails the test). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Answers every later request with this status (an outage, a revoked webhook) until told `undefined`. */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

type Judge = (request: ReceivedRequest) => { status: number; type: string; body: string };

/** An HTTP server on 127.0.0.1 that hands each request, read whole, to `judge`. */
async function standIn(judge: Judge, refusal: (status: number) => { type: string; body: string }): Promise<StandIn> {
  const received: ReceivedRequest[] = [];
  const acceptedRequests: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  let failing: number | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        raw,
        body: undefined,
        problems: [],
      };
      received.push(request);
      const answer = failing === undefined ? judge(request) : { status: failing, ...refusal(failing) };
      if (answer.status >= 200 && answer.status <= 299) acceptedRequests.push(request);
      res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    accepted: () => acceptedRequests,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (acceptedRequests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) {
          const problems = received.flatMap((r) => r.problems);
          throw new Error(
            `expected ${count} requests, got ${acceptedRequests.length}; problems: ${problems.join('; ')}`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return acceptedRequests;
    },
    failWith(status) {
      failing = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\/\S+$/.test(value);

/** The JSON body of a request that says it is JSON; a problem otherwise. */
function jsonBody(request: ReceivedRequest): unknown {
  if (request.method !== 'POST') request.problems.push(`method ${request.method}, not POST`);
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) {
    request.problems.push(`content-type ${request.headers['content-type']}, not application/json`);
  }
  try {
    request.body = JSON.parse(request.raw);
  } catch {
    request.problems.push('the body is not JSON');
  }
  return request.body;
}

/** A Block Kit text object: `plain_text` or `mrkdwn`, non-empty, within `max` characters. */
function checkText(problems: string[], where: string, value: unknown, max: number, types = ['plain_text', 'mrkdwn']) {
  if (!isRecord(value) || !types.includes(String(value.type))) {
    problems.push(`${where}: a text object of type ${types.join(' or ')} expected`);
    return;
  }
  if (typeof value.text !== 'string' || value.text.length === 0 || value.text.length > max) {
    problems.push(`${where}.text: 1 to ${max} characters expected`);
  }
}

/** A Block Kit button: a `plain_text` label of at most 75 characters, a URL, an allowed style, a unique action id. */
function buttonProblems(problems: string[], at: string, element: unknown, ids: Set<unknown>) {
  if (!isRecord(element) || element.type !== 'button') {
    problems.push(`${at}: a button expected`);
    return;
  }
  checkText(problems, `${at}.text`, element.text, 75, ['plain_text']);
  if (!isHttpUrl(element.url) || element.url.length > 3000) problems.push(`${at}.url`);
  if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
    problems.push(`${at}.style: primary or danger`);
  }
  if (element.action_id !== undefined) {
    if (typeof element.action_id !== 'string' || element.action_id.length > 255 || ids.has(element.action_id)) {
      problems.push(`${at}.action_id: unique, at most 255 characters`);
    }
    ids.add(element.action_id);
  }
}

/** One block of the kinds the channel uses (section, image, actions), with Slack's limits. */
function blockProblems(problems: string[], where: string, block: unknown) {
  if (!isRecord(block)) {
    problems.push(`${where}: not an object`);
  } else if (block.type === 'section') {
    checkText(problems, `${where}.text`, block.text, 3000);
  } else if (block.type === 'image') {
    if (!isHttpUrl(block.image_url) || block.image_url.length > 3000) problems.push(`${where}.image_url`);
    if (typeof block.alt_text !== 'string' || block.alt_text === '' || block.alt_text.length > 2000) {
      problems.push(`${where}.alt_text`);
    }
  } else if (block.type === 'actions') {
    const { elements } = block;
    if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) {
      problems.push(`${where}.elements: 1 to 25`);
      return;
    }
    const ids = new Set<unknown>();
    for (const [j, element] of (elements as unknown[]).entries()) {
      buttonProblems(problems, `${where}.elements[${j}]`, element, ids);
    }
  } else if (block.type !== 'context' && block.type !== 'divider' && block.type !== 'header') {
    problems.push(`${where}: unknown block type ${String(block.type)}`);
  }
}

/** A message of blocks and its fallback text. */
function slackProblems(body: unknown): string[] {
  if (!isRecord(body)) return ['the payload is not an object'];
  const problems: string[] = [];
  if (typeof body.text !== 'string' || body.text === '') problems.push('no fallback `text`');
  const { blocks } = body;
  if (!Array.isArray(blocks) || blocks.length === 0 || blocks.length > 50) return [...problems, '1 to 50 blocks'];
  for (const [i, block] of (blocks as unknown[]).entries()) blockProblems(problems, `blocks[${i}]`, block);
  return problems;
}

/**
 * A Slack incoming webhook: `ok` for a well-formed message, `invalid_blocks` (400) otherwise. With
 * `unreachableImages`, it cannot download any image, and refuses a message with an image block as Slack does.
 */
export async function startSlack(options: { unreachableImages?: boolean } = {}): Promise<StandIn> {
  const refusal = (status: number) => ({
    type: 'text/html',
    body: status === 404 ? 'no_service' : status === 410 ? 'channel_is_archived' : 'internal_error',
  });
  return await standIn((request) => {
    const body = jsonBody(request);
    if (request.problems.length === 0) request.problems.push(...slackProblems(body));
    const blocks = isRecord(body) && Array.isArray(body.blocks) ? (body.blocks as unknown[]) : [];
    if (options.unreachableImages && blocks.some((block) => isRecord(block) && block.type === 'image')) {
      request.problems.push('downloading image failed');
    }
    if (request.problems.length > 0) return { status: 400, type: 'text/html', body: 'invalid_blocks' };
    return { status: 200, type: 'text/html', body: 'ok' };
  }, refusal);
}

const adaptiveElementTypes = new Set(['TextBlock', 'Image', 'FactSet', 'ColumnSet', 'Container', 'RichTextBlock']);

/** An Adaptive Card as Teams renders it: a known version, body elements, `Action.OpenUrl` actions. */
function cardProblems(problems: string[], where: string, card: unknown) {
  if (!isRecord(card) || card.type !== 'AdaptiveCard') {
    problems.push(`${where}: an AdaptiveCard`);
    return;
  }
  if (typeof card.$schema !== 'string') problems.push(`${where}.$schema`);
  if (!['1.0', '1.1', '1.2', '1.3', '1.4', '1.5'].includes(String(card.version))) {
    problems.push(`${where}.version: 1.0 to 1.5 (what Teams renders)`);
  }
  const body = Array.isArray(card.body) ? (card.body as unknown[]) : [];
  if (body.length === 0) problems.push(`${where}.body: elements`);
  for (const [j, element] of body.entries()) {
    const at = `${where}.body[${j}]`;
    if (!isRecord(element) || !adaptiveElementTypes.has(String(element.type))) problems.push(`${at}.type`);
    else if (element.type === 'TextBlock' && (typeof element.text !== 'string' || element.text === '')) {
      problems.push(`${at}.text`);
    } else if (element.type === 'RichTextBlock') {
      const inlines = Array.isArray(element.inlines) ? (element.inlines as unknown[]) : [];
      const runs = inlines.every((run) => isRecord(run) && run.type === 'TextRun' && typeof run.text === 'string');
      if (inlines.length === 0 || !runs) problems.push(`${at}.inlines: TextRuns`);
    } else if (element.type === 'Image' && !isHttpUrl(element.url)) problems.push(`${at}.url`);
  }
  const actions = card.actions ?? [];
  if (!Array.isArray(actions)) {
    problems.push(`${where}.actions: an array`);
    return;
  }
  for (const [j, action] of (actions as unknown[]).entries()) {
    const at = `${where}.actions[${j}]`;
    if (!isRecord(action) || action.type !== 'Action.OpenUrl') {
      problems.push(`${at}: Action.OpenUrl`);
      continue;
    }
    if (typeof action.title !== 'string' || action.title === '') problems.push(`${at}.title`);
    if (!isHttpUrl(action.url)) problems.push(`${at}.url`);
    if (action.style !== undefined && !['default', 'positive', 'destructive'].includes(String(action.style))) {
      problems.push(`${at}.style`);
    }
  }
}

/** The Teams envelope: a `message` whose attachments are Adaptive Cards. */
function teamsProblems(body: unknown): string[] {
  if (!isRecord(body) || body.type !== 'message') return ['`type: "message"` expected'];
  const { attachments } = body;
  if (!Array.isArray(attachments) || attachments.length === 0) return ['no attachments'];
  const problems: string[] = [];
  for (const [i, attachment] of (attachments as unknown[]).entries()) {
    if (!isRecord(attachment) || attachment.contentType !== 'application/vnd.microsoft.card.adaptive') {
      problems.push(`attachments[${i}].contentType: application/vnd.microsoft.card.adaptive`);
    } else cardProblems(problems, `attachments[${i}].content`, attachment.content);
  }
  return problems;
}

/** A Teams Workflows webhook: 202 Accepted (and no body) for a well-formed card, 400 otherwise. */
export async function startTeams(): Promise<StandIn> {
  const error = (status: number, message: string) => ({
    type: 'application/json',
    body: JSON.stringify({ error: { code: status === 400 ? 'InvalidRequestContent' : 'ServiceError', message } }),
  });
  return await standIn(
    (request) => {
      const body = jsonBody(request);
      if (request.problems.length === 0) request.problems.push(...teamsProblems(body));
      if (request.problems.length > 0) return { status: 400, ...error(400, request.problems.join('; ')) };
      return { status: 202, type: 'text/plain', body: '' };
    },
    (status) => error(status, 'failed'),
  );
}

export interface TwilioStandIn extends StandIn {
  accountSid: string;
  authToken: string;
}

const e164Pattern = /^\+[1-9]\d{1,14}$/;

/** Twilio's error resource. */
const twilioError = (status: number, code: number, message: string) => ({
  status,
  type: 'application/json',
  body: JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }),
});

/** Twilio's codes of the refusals the stand-in can be told to give. */
const twilioCodes: Record<number, [number, string]> = {
  400: [21211, "The 'To' number is not a valid phone number."],
  401: [20003, 'Authenticate'],
  429: [20429, 'Too Many Requests'],
  500: [20500, 'Internal Server Error'],
};

/** Twilio's Messages resource for one account (`accountSid`, `authToken`). */
export async function startTwilio(): Promise<TwilioStandIn> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const refusal = (status: number) => {
    const [code, message] = twilioCodes[status] ?? [20500, 'Error'];
    const { type, body } = twilioError(status, code, message);
    return { type, body };
  };
  const server = await standIn((request) => {
    const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
    if (request.method !== 'POST' || request.path !== path) {
      request.problems.push(`${request.method} ${request.path}, not POST ${path}`);
      return twilioError(404, 20404, 'The requested resource was not found');
    }
    const [scheme, encoded = ''] = (request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Basic' || Buffer.from(encoded, 'base64').toString('utf8') !== `${accountSid}:${authToken}`) {
      request.problems.push('HTTP Basic authentication with the account SID and auth token expected');
      return twilioError(401, 20003, 'Authenticate');
    }
    if (!/^application\/x-www-form-urlencoded\b/.test(request.headers['content-type'] ?? '')) {
      request.problems.push(`content-type ${request.headers['content-type']}, not a form`);
      return twilioError(400, 21602, 'Message body is required.');
    }
    const form = Object.fromEntries(new URLSearchParams(request.raw));
    request.body = form;
    if (!e164Pattern.test(form.To ?? '')) {
      request.problems.push(`To ${form.To} is not E.164`);
      return twilioError(400, 21211, `The 'To' number ${form.To} is not a valid phone number.`);
    }
    if (!form.From) {
      request.problems.push('no From');
      return twilioError(400, 21603, "A 'From' phone number is required.");
    }
    if (!form.Body) {
      request.problems.push('no Body');
      return twilioError(400, 21602, 'Message body is required.');
    }
    if (form.Body.length > 1600) {
      request.problems.push('Body longer than 1600 characters');
      return twilioError(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    return {
      status: 201,
      type: 'application/json',
      body: JSON.stringify({
        sid,
        account_sid: accountSid,
        to: form.To,
        from: form.From,
        body: form.Body,
        status: 'queued',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        num_segments: String(Math.ceil(form.Body.length / 153)),
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      }),
    };
  }, refusal);
  return { ...server, accountSid, authToken };
}
