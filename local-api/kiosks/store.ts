import { type Context, runtimePart } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { deviceEnrolment } from '../device.ts';
import { prepared } from '../store/rows.ts';
import { syncAgentOf } from '../sync/agent.ts';
import { pendingSummary } from '../sync/outbox.ts';
import { syncState } from '../sync/state.ts';
import { appVersionOf } from './version.ts';

/*
 * A hub's kiosk devices (docs/sync.md, "Kiosks"): each kiosk says who it is and how it stands with each pull of the
 * feed (its device id, app version, unpushed mutations, clock offset), and the hub keeps the last report per device.
 */

/** What a kiosk reports with its pulls (the query of GET /v1/sync/changes). */
export interface KioskReport {
  deviceId: string;
  clientId: string | undefined;
  appVersion: string | undefined;
  pending: number | undefined;
  oldestPendingAt: number | undefined;
  clockSkewMs: number | undefined;
}

/**
 * A report the hub already holds is written again only this much later: a kiosk polls every 5 s, and "last contact"
 * to within half a minute is what a person reading the list needs. A report that says something new is written
 * at once.
 */
export const reportEveryMs = 30_000;

/** A kiosk not heard from for this long is offline: a few missed reports. */
export const offlineAfterMs = 90_000;

interface Written {
  said: string;
  at: number;
}

/** The reports this process wrote last, by company and device. */
const writtenReports = (ctx: Pick<Context, 'runtime'>) =>
  runtimePart(ctx, 'kiosks.reports', () => new Map<string, Written>());

/** Keeps a kiosk's report: one statement when it says something new or the last is old, none otherwise. */
export async function recordKioskReport(ctx: Context, caller: Caller, report: KioskReport): Promise<void> {
  const now = ctx.clock.now();
  const key = `${caller.companyId}/${report.deviceId}`;
  // A device that pulls with a sync credential is named by it in the visits it pushes (`checkinByIpadId`).
  const credentialId = caller.role === 'sync' ? caller.credentialId : null;
  const { deviceId: _id, ...said } = report;
  const text = JSON.stringify({ ...said, credentialId });
  const written = writtenReports(ctx);
  const last = written.get(key);
  if (last && last.said === text && now - last.at < reportEveryMs) return;
  await prepared(
    ctx.db,
    `INSERT INTO kiosk_devices (companyId, deviceId, credentialId, clientId, appVersion, pending, oldestPendingAt,
       clockSkewMs, lastSeenAt)
     VALUES (:companyId, :deviceId, :credentialId, :clientId, :appVersion, :pending, :oldestPendingAt, :clockSkewMs,
       :now)
     ON CONFLICT (companyId, deviceId) DO UPDATE SET clientId = excluded.clientId, appVersion = excluded.appVersion,
       credentialId = COALESCE(excluded.credentialId, kiosk_devices.credentialId),
       pending = excluded.pending, oldestPendingAt = excluded.oldestPendingAt, clockSkewMs = excluded.clockSkewMs,
       lastSeenAt = excluded.lastSeenAt`,
  ).run({
    companyId: caller.companyId,
    deviceId: report.deviceId,
    credentialId,
    clientId: report.clientId ?? null,
    appVersion: report.appVersion ?? null,
    pending: report.pending ?? null,
    oldestPendingAt: report.oldestPendingAt ?? null,
    clockSkewMs: report.clockSkewMs ?? null,
    now,
  });
  written.set(key, { said: text, at: now });
}

export type KioskState = 'online' | 'offline' | 'paired' | 'standalone' | 'connecting';

export interface KioskEntry {
  deviceId: string;
  name: string | null;
  self: boolean;
  state: KioskState;
  enrolledAt: number | null;
  lastSeenAt: number | null;
  pending: number | null;
  oldestPendingAt: number | null;
  clockSkewMs: number | null;
  appVersion: string | null;
  /** Whether the device pushes and pulls with a `sync` credential (a pairing's, or one made for it). */
  ownCredential: boolean;
  /**
   * What the visits it checked in carry as `checkinByIpadId` here (the visit log's kiosk filter): its sync
   * credential at a hub, its screen's credential on a standalone kiosk; null when not known.
   */
  checkinById: string | null;
}

interface DeviceRow {
  deviceId: string;
  name: string | null;
  credentialId: string | null;
  appVersion: string | null;
  pending: number | null;
  oldestPendingAt: number | null;
  clockSkewMs: number | null;
  enrolledAt: number | null;
  lastSeenAt: number | null;
}

/** How a device stands, from the hub's side: heard from lately, not, or paired and not heard from yet. */
export function deviceState(lastSeenAt: number | null, now: number): KioskState {
  if (lastSeenAt === null) return 'paired';
  return now - lastSeenAt <= offlineAfterMs ? 'online' : 'offline';
}

/** This device's sync state in one word: it follows no hub, or how its link to its hub stands. */
function selfState(following: boolean, agentState: string | undefined): KioskState {
  if (!following) return 'standalone';
  return agentState === 'online' || agentState === 'offline' ? agentState : 'connecting';
}

/** This device, when its kiosk serves the caller's company: what a standalone kiosk's console shows. */
async function thisDevice(ctx: Context, caller: Caller): Promise<KioskEntry | undefined> {
  const enrolment = await deviceEnrolment(ctx);
  if (enrolment?.companyId !== caller.companyId) return undefined;
  const state = await syncState(ctx);
  const { pending, oldestPendingAt } = await pendingSummary(ctx);
  const following = state.upstreamUrl !== null;
  return {
    deviceId: state.deviceId,
    name: null,
    self: true,
    state: selfState(following, syncAgentOf(ctx)?.memory().state),
    enrolledAt: enrolment.enrolledAt,
    lastSeenAt: following ? state.lastSuccessAt : ctx.clock.now(),
    pending: Number(pending),
    oldestPendingAt,
    clockSkewMs: following ? state.clockSkewMs : null,
    appVersion: appVersionOf(ctx) ?? null,
    ownCredential: false,
    checkinById: following ? null : enrolment.kioskCredentialId,
  };
}

/** The company's kiosks: this device first when it is one of them, then those that reported to this hub. */
export async function listKiosks(ctx: Context, caller: Caller): Promise<KioskEntry[]> {
  const now = ctx.clock.now();
  const self = await thisDevice(ctx, caller);
  const rows = (await prepared(
    ctx.db,
    `SELECT deviceId, name, credentialId, appVersion, pending, oldestPendingAt, clockSkewMs, enrolledAt, lastSeenAt
     FROM kiosk_devices WHERE companyId = ? ORDER BY enrolledAt, deviceId`,
  ).all(caller.companyId)) as DeviceRow[];
  const reported = rows
    .filter((row) => row.deviceId !== self?.deviceId)
    .map(
      (row): KioskEntry => ({
        deviceId: row.deviceId,
        name: row.name,
        self: false,
        state: deviceState(row.lastSeenAt, now),
        enrolledAt: row.enrolledAt,
        lastSeenAt: row.lastSeenAt,
        pending: row.pending,
        oldestPendingAt: row.oldestPendingAt,
        clockSkewMs: row.clockSkewMs,
        appVersion: row.appVersion,
        ownCredential: row.credentialId !== null,
        checkinById: row.credentialId,
      }),
    );
  return self ? [self, ...reported] : reported;
}
