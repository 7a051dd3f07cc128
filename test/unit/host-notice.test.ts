import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostNoticeOf } from '../../local-api/notifications/delivery.ts';

const pending = { status: 'pending', lastError: null } as const;
const retrying = { status: 'pending', lastError: 'cannot reach SMTP 127.0.0.1:9' } as const;
const givenUp = { status: 'failed', lastError: 'SMTP 127.0.0.1:25 answered 550' } as const;
const done = { status: 'done', lastError: null } as const;

test('a check-in message is notified once one channel confirmed it, failed only when every delivery failed', () => {
  assert.equal(hostNoticeOf([]), 'none', 'nothing queued: nobody is being told');
  assert.equal(hostNoticeOf([pending]), 'sending', 'queued is not told');
  assert.equal(hostNoticeOf([pending, retrying]), 'sending', 'one channel has not tried yet');
  assert.equal(hostNoticeOf([retrying]), 'failed', 'failed once and waiting for a retry');
  assert.equal(hostNoticeOf([retrying, givenUp]), 'failed');
  assert.equal(hostNoticeOf([givenUp, done]), 'notified', 'one channel that confirmed is enough');
  assert.equal(hostNoticeOf([{ status: 'done', lastError: 'an earlier attempt failed' }]), 'notified');
});
