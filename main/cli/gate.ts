import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { startGate } from '../../local-api/gate/gate.ts';
import { command } from './command.ts';
import { listenFailure, port, portOption, wholeNumber } from './inputs.ts';
import { closeOnSignal } from './service.ts';

export const gate = command({
  name: 'gate',
  summary: 'The reference gate, which opens for valid access codes (docs/access-control.md).',
  options: {
    port: portOption,
    host: { type: 'string', value: '<ip>', help: 'the address to listen on (default 127.0.0.1)' },
    'aes-key': { type: 'string', value: '<key>', help: "the company's access-code key", required: true },
    username: { type: 'string', value: '<u>', help: 'the user the service calls the gate as', required: true },
    password: { type: 'string', value: '<p>', help: "that user's password", required: true },
    totp: { type: 'boolean', help: 'codes are TOTP codes rather than AES tokens' },
    'webhook-secret': { type: 'string', value: '<s>', help: "the secret of the service's webhook calls" },
    'leeway-ms': { type: 'string', value: '<n>', help: 'clock difference allowed, in milliseconds (default 0)' },
    data: {
      type: 'string',
      value: '<dir>',
      help: 'where it keeps the delivery keys it has seen, across restarts (default ~/.portaria-gate)',
    },
  },
  async run(values) {
    const portNumber = port(values.port);
    const host = values.host ?? '127.0.0.1';
    const options = {
      port: portNumber,
      host,
      aesKey: values['aes-key'],
      username: values.username,
      password: values.password,
      totp: values.totp,
      webhookSecret: values['webhook-secret'],
      leewayMs: wholeNumber(values['leeway-ms'] ?? '0', '--leeway-ms'),
      dataDir: resolve(values.data ?? join(homedir(), '.portaria-gate')),
    };
    const running = await startGate(options).catch((error: unknown) => {
      throw listenFailure(error, host, portNumber) ?? error;
    });
    closeOnSignal(running.close);
    process.stdout.write(
      `Gate listening on ${running.url} (${values.totp ? 'TOTP' : 'AES'} codes; keys seen in ${options.dataDir})\n`,
    );
  },
});
