import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IpcRefused, ipcArguments, ipcDispatcher } from '../../main/ipc.ts';
import { channels } from '../../preload/api.ts';

const app = 'http://127.0.0.1:4780';
const top = { url: `${app}/checkin`, parent: null };

function harness() {
  const calls: unknown[] = [];
  const dispatch = ipcDispatcher(() => app, {
    connection: () => ({ serviceUrl: app, companyId: 'c1', apiKey: 'prt_key' }),
    appVersion: () => '1.2.3',
    async printBadge(request) {
      calls.push(['printBadge', request]);
      return { printed: true };
    },
    exitKiosk(pin) {
      calls.push(['exitKiosk', pin]);
      return { exited: false, reason: 'WRONG_PIN' };
    },
  });
  return { dispatch, calls };
}

async function refused(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof IpcRefused && error.code === code);
}

describe('IPC', () => {
  test('the allow-list is exactly the bridge’s channels', () => {
    assert.deepEqual(Object.keys(ipcArguments).sort(), Object.values(channels).sort());
  });

  test('answers the app’s top frame with valid arguments', async () => {
    const { dispatch, calls } = harness();
    assert.deepEqual(await dispatch(channels.connection, top, []), {
      serviceUrl: app,
      companyId: 'c1',
      apiKey: 'prt_key',
    });
    assert.equal(await dispatch(channels.appVersion, top, []), '1.2.3');
    assert.deepEqual(await dispatch(channels.printBadge, top, [{ path: '/badge/v1?size=small', copies: 2 }]), {
      printed: true,
    });
    assert.deepEqual(await dispatch(channels.exitKiosk, top, ['123456']), { exited: false, reason: 'WRONG_PIN' });
    assert.deepEqual(calls, [
      ['printBadge', { path: '/badge/v1?size=small', copies: 2, url: `${app}/badge/v1?size=small` }],
      ['exitKiosk', '123456'],
    ]);
  });

  test('refuses unknown channels and untrusted senders before looking at arguments', async () => {
    const { dispatch, calls } = harness();
    await refused(dispatch('portaria:shell', top, []), 'UNKNOWN_CHANNEL');
    await refused(dispatch('__proto__', top, []), 'UNKNOWN_CHANNEL');
    await refused(dispatch(channels.connection, { url: 'https://evil.test/', parent: null }, []), 'UNTRUSTED_SENDER');
    await refused(dispatch(channels.connection, { url: `${app}/`, parent: top }, []), 'UNTRUSTED_SENDER');
    await refused(dispatch(channels.exitKiosk, null, ['123456']), 'UNTRUSTED_SENDER');
    assert.deepEqual(calls, []);
  });

  test('refuses arguments outside each channel’s schema', async () => {
    const { dispatch, calls } = harness();
    const cases: [string, unknown[]][] = [
      [channels.connection, ['extra']],
      [channels.appVersion, [{}]],
      [channels.exitKiosk, []],
      [channels.exitKiosk, [123456]],
      [channels.exitKiosk, ['12a456']],
      [channels.exitKiosk, ['123']],
      [channels.exitKiosk, ['1234567890123']],
      [channels.exitKiosk, ['123456', 'extra']],
      [channels.printBadge, []],
      [channels.printBadge, ['/badge/1']],
      [channels.printBadge, [{ path: 'https://evil.test/badge' }]],
      [channels.printBadge, [{ path: '//evil.test/badge' }]],
      [channels.printBadge, [{ path: '/\\evil.test/badge' }]],
      [channels.printBadge, [{ path: 'badge/1' }]],
      [channels.printBadge, [{ path: '/badge/1\n' }]],
      [channels.printBadge, [{ path: '/badge/1', copies: 0 }]],
      [channels.printBadge, [{ path: '/badge/1', copies: 11 }]],
      [channels.printBadge, [{ path: '/badge/1', deviceName: 'Other printer' }]],
    ];
    for (const [channel, args] of cases) {
      await refused(dispatch(channel, top, args), 'INVALID_ARGUMENTS');
    }
    assert.deepEqual(calls, []);
  });
});
