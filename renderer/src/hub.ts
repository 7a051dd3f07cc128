import { useEffect, useState } from 'react';
import type { Api } from './api.ts';

/** The part of GET /v1/sync/status the kiosk shows (the sync service answers more). */
export interface SyncStatus {
  role: 'hub' | 'kiosk';
  state: 'hub' | 'connecting' | 'online' | 'offline';
  upstream: string | null;
  pending: number;
  lastSuccessAt: string | null;
  lastError: string | null;
  /** The hub's clock minus this device's, in milliseconds; absent from services older than the clock warning. */
  clockSkewMs?: number | null;
  /** This device's clock is more than 30 s from the hub's. */
  clockWarning?: boolean;
}

const everyMs = 30_000;

/**
 * The hub connection as the sync service reports it, asked every 30 s; undefined where the service does not sync
 * (no endpoint) or has not answered yet. The service itself is local: "offline" means the hub cannot be reached.
 */
export function useSyncStatus(api: Api): SyncStatus | undefined {
  const [status, setStatus] = useState<SyncStatus>();
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      try {
        const answer = await api.optional<SyncStatus>('/v1/sync/status');
        if (!current) return;
        setStatus(answer);
        if (answer === undefined) return; // this service does not sync: nothing to follow
      } catch {
        // The service is down: the reachability banner says so; ask again later.
      }
      if (current) timer = setTimeout(ask, everyMs);
    };
    void ask();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api]);
  return status;
}

export const hubOffline = (status: SyncStatus | undefined) => status?.role === 'kiosk' && status.state === 'offline';
