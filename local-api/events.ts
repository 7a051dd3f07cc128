import type { Caller } from './credentials/caller.ts';

export const eventNames = [
  'visit.checkin',
  'visit.checkout',
  'visit.allowed',
  'visit.denied',
  'visit.updated',
  'visit.deleted',
  'invitee.created',
  'invitee.updated',
  'invitee.arrived',
  'invitee.deleted',
  'visitor.deleted',
  'meeting.created',
  'meeting.updated',
  'meeting.deleted',
  'customfield.created',
  'customfield.updated',
  'customfield.deleted',
  'visitortype.created',
  'visitortype.updated',
  'visitortype.deleted',
  'blocklist.created',
  'blocklist.updated',
  'blocklist.deleted',
  'company.updated',
  'notifications.settings.updated',
  'notifications.settings.deleted',
  'host.created',
  'host.updated',
  'host.deleted',
  'access.updated',
  'access.deleted',
  'privacy.retention.updated',
  'privacy.retention.swept',
  'privacy.erased',
] as const;
export type EventName = (typeof eventNames)[number];

export interface DomainEvent {
  name: EventName;
  caller: Caller;
  /** The object as the API answers it (built on first use: most writes have few listeners). */
  object(): Promise<Record<string, unknown>>;
}

/**
 * Runs inside the transaction of the write that caused the event, awaited by it: a listener that enqueues a job
 * (a webhook, the gate callback, an e-mail, a sync mutation) commits or rolls back with the write itself.
 */
export type EventListener = (event: DomainEvent) => Promise<void>;

/**
 * Decides whether a write may run, before it changes anything: throws the refusal (an ApiError). Given the event
 * the write will publish, as the write calls `decide` with it.
 */
export type WriteRule = (name: EventName, caller: Caller) => Promise<void>;

export interface EventBus {
  subscribe(listener: EventListener): void;
  /** A rule every write is decided by (`decide`). */
  addRule(rule: WriteRule): void;
  /**
   * Called by each write once its input is checked and before its first change, with the event it will publish:
   * a refused write throws here, so nothing of it runs.
   */
  decide(name: EventName, caller: Caller): Promise<void>;
  publish(
    name: EventName,
    caller: Caller,
    object: () => Record<string, unknown> | Promise<Record<string, unknown>>,
  ): Promise<void>;
}

export function createEventBus(): EventBus {
  const listeners: EventListener[] = [];
  const rules: WriteRule[] = [];
  return {
    subscribe: (listener) => void listeners.push(listener),
    addRule: (rule) => void rules.push(rule),
    async decide(name, caller) {
      for (const rule of rules) await rule(name, caller);
    },
    async publish(name, caller, build) {
      if (listeners.length === 0) return;
      let built: Promise<Record<string, unknown>> | undefined;
      const event: DomainEvent = { name, caller, object: async () => (built ??= Promise.resolve(await build())) };
      for (const listener of listeners) await listener(event);
    },
  };
}
