import { accessConfigSecrets } from '../access/schema.ts';
import { notificationSettingsSecrets } from '../notifications/schema.ts';

/** A table whose rows flow from the hub to its kiosks through the change feed. */
export interface FeedTable {
  table: string;
  /** Primary-key column. */
  key: string;
  /** Column holding the row's company id (the company's own id for `companies`). */
  company: string;
  /** Columns that never leave the hub (integration secrets a kiosk has no use for). */
  omit: readonly string[];
  /** Columns sealed at rest: opened to travel, sealed again by the kiosk with its own device key. */
  sealed: readonly string[];
  /**
   * The rows a snapshot sends (a new kiosk's first sync, a full resync), when not every row of the company: SQL
   * conditions on the row's columns, disjoint, each one an index's range (`:recentSince` is bound), so that the
   * snapshot costs what the kiosk needs, not the company's history. Such a table is sent in part.
   */
  snapshot?: readonly string[];
  /**
   * Rows that record what a kiosk witnessed (a person checking in): the kiosk never removes them on the hub's
   * word, since its copy may be the only one left (a check-in the hub refused, or lost to a restore).
   */
  witnessed?: boolean;
}

const feedTable = (table: string, options: Partial<Omit<FeedTable, 'table'>> = {}): FeedTable => ({
  table,
  key: 'id',
  company: 'companyId',
  omit: [],
  sealed: [],
  ...options,
});

/**
 * A new kiosk receives the visits of the last week and every visit still open (who is inside, and the week's log),
 * and the invitations expected from a week ago on: not the company's history. Afterwards it receives every change,
 * old visits' included.
 */
export const recentVisitsMs = 7 * 86_400_000;

/**
 * The tables of the change feed. Adding a table is one line here: its triggers are created, and its existing rows
 * entered into the feed, at the next start (see `installChangeFeed`).
 */
export const feedTables: readonly FeedTable[] = [
  feedTable('companies', { company: 'id', omit: ['serproClientSecret', 'serproAuthToken', 'liberadoAuthToken'] }),
  feedTable('hosts'),
  feedTable('invitees', { snapshot: ['deletedAt IS NULL AND expectedAt >= :recentSince'] }),
  feedTable('visits', {
    // The week's visits by their check-in time; the older ones still open by their check-out (none): the unary +
    // keeps SQLite from walking the company's history by check-in time for them instead.
    snapshot: [
      'deletedAt IS NULL AND checkinAt >= :recentSince',
      'deletedAt IS NULL AND checkoutAt IS NULL AND +checkinAt < :recentSince',
    ],
    witnessed: true,
  }),
  feedTable('access_configs', { key: 'companyId', sealed: accessConfigSecrets }),
  feedTable('privacy_settings', { key: 'companyId' }),
  // What a kiosk needs at the door besides: the meetings its invitees belong to, the check-in's custom fields, the
  // blocklist it screens against, its visitor types, and how it sends its hosts' notifications.
  feedTable('meetings'),
  feedTable('custom_fields'),
  feedTable('visitor_types'),
  feedTable('blocklist'),
  feedTable('notification_settings', { key: 'companyId', sealed: [...notificationSettingsSecrets, 'linkKey'] }),
  // Hosts' replies to their messages (opened, answered): the kiosk that took the check-in escalates by them. A
  // snapshot sends the week's.
  feedTable('host_replies', { snapshot: ['updatedAt >= :recentSince'] }),
  // The hub's erasures (row ids only): each kiosk erases its own copies of the person (privacy/replica.ts).
  feedTable('privacy_erasures'),
];

export function feedTableNamed(name: string, tables: readonly FeedTable[] = feedTables): FeedTable | undefined {
  return tables.find((t) => t.table === name);
}
