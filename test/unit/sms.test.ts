import assert from 'node:assert/strict';
import { test } from 'node:test';
import { e164, smsMessagesUrl } from '../../local-api/notifications/sms.ts';

test('e164 turns a number as typed, with its calling code, into E.164; null when no such number can exist', () => {
  const cases: [string | null, string | null, string | null][] = [
    ['11 98765-4321', '+55', '+5511987654321'],
    ['(11) 3333-4444', '+55', '+551133334444'],
    ['030 1234567', '+49', '+49301234567'],
    ['138 0013 8000', '+86', '+8613800138000'],
    ['(201) 555-0123', '+1', '+12015550123'],
    // A number typed with its own country keeps it.
    ['+1 415 555 2671', '+55', '+14155552671'],
    ['123', '+55', null],
    ['11 98765-4321', null, null],
    ['not a number', '+55', null],
    [null, '+55', null],
    ['', '+55', null],
  ];
  for (const [phone, countryCode, expected] of cases) {
    assert.equal(e164(phone, countryCode), expected, `${phone} ${countryCode}`);
  }
});

test('the Messages resource of the account, whatever the base address ends with', () => {
  for (const base of ['https://api.twilio.com', 'https://api.twilio.com/']) {
    assert.equal(
      smsMessagesUrl({ twilioBaseUrl: base, twilioAccountSid: 'AC123' }),
      'https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json',
    );
  }
});
