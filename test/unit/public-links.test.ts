import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { claimedCompany, signLink, verifyLink } from '../../local-api/public/links.ts';

const key = Buffer.alloc(32, 7);
const claims = { companyId: 'c1', purpose: 'decide' as const, subjectId: 'v1', expiresAt: 10_000, nonce: 'n1' };

describe('signed links', () => {
  it('opens a link it signed, before its expiry, for its purpose', () => {
    assert.deepEqual(verifyLink(key, signLink(key, claims), 'decide', 9_999), claims);
    assert.equal(claimedCompany(signLink(key, claims)), 'c1');
  });

  it('refuses an expired link, another purpose, another key', () => {
    const token = signLink(key, claims);
    assert.equal(verifyLink(key, token, 'decide', 10_000), 'LINK_EXPIRED');
    assert.equal(verifyLink(key, token, 'pass', 0), 'LINK_INVALID');
    assert.equal(verifyLink(Buffer.alloc(32, 8), token, 'decide', 0), 'LINK_INVALID');
  });

  it('refuses claims changed after signing, and tokens of the wrong shape', () => {
    const [, sig] = signLink(key, claims).split('.');
    const forged = Buffer.from(JSON.stringify({ c: 'c1', p: 'decide', s: 'v2', e: 10_000, n: 'n1' })).toString(
      'base64url',
    );
    assert.equal(verifyLink(key, `${forged}.${sig}`, 'decide', 0), 'LINK_INVALID');
    for (const token of ['', '.', 'abc', `${signLink(key, claims)}.x`]) {
      assert.equal(verifyLink(key, token, 'decide', 0), 'LINK_INVALID');
    }
  });
});
