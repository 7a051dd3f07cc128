/** The console's live topics (docs/console.md, "Live updates"): each table of the change feed tells one, or none. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topicsOfTables } from '../../local-api/console-events/channel.ts';

test('the tables written become the topics a page refetches by, once each, in a fixed order', () => {
  assert.deepEqual(topicsOfTables(['invitees', 'visits', 'host_replies', 'visits']), ['visits', 'invitees']);
  assert.deepEqual(topicsOfTables(['blocklist', 'companies', 'meetings', 'hosts']), ['meetings', 'hosts', 'settings']);
  assert.deepEqual(topicsOfTables(['privacy_erasures']), []);
});

test('a table of the feed without a topic of its own is told as settings, the widest refetch', () => {
  assert.deepEqual(topicsOfTables(['a_table_added_later']), ['settings']);
});
