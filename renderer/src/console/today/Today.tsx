import { type ReactNode, useCallback, useState } from 'react';
import { callerRoleOf, type Role, roles } from '../../../../local-api/credentials/caller.ts';
import { ApiProblem } from '../../api.ts';
import { attentionOf, overview, type Today as TodayCounts } from '../../frontdesk/attention.ts';
import { visitState } from '../../frontdesk/visit-state.ts';
import { type InsideVisit, insideVisits, todaysInvitees } from '../../lists.ts';
import { isToday, timeOfDay } from '../../time.ts';
import type { Invitee, Visit } from '../../types.ts';
import { ApprovalCard, type TypeName } from '../approvals/ApprovalCard.tsx';
import '../approvals/approvals.css';
import { decidesFor, type WaitingVisit, waitingVisits } from '../approvals/waiting.ts';
import { useConsole } from '../context.ts';
import { useLiveLoad } from '../live-load.ts';
import { problemCode } from '../problem-code.ts';
import type { ConsoleSession } from '../session.ts';
import { useWords } from '../words.ts';
import './today.css';
import { todayWords } from './words.ts';

/** A message to a host (GET /v1/integration/notifications/deliveries), as far as Today shows a failed one. */
interface Delivery {
  id: string;
  createdAt: string;
  channel: string;
  hostName: string | null;
  status: 'pending' | 'done' | 'failed';
  lastError: string | null;
}

/** What Today shows; a part the person's role may not read is absent, and its section with it. */
interface Day {
  counts?: TodayCounts;
  waiting?: WaitingVisit[];
  inside?: InsideVisit[];
  expected?: Invitee[];
  blocked?: Visit[];
  failures?: Delivery[];
  types: TypeName[];
  /** Codes of the reads that failed for another reason than the role. */
  problems: string[];
}

const attentionWord = {
  blocked: 'attentionBlocked',
  waiting: 'attentionWaiting',
  withoutHost: 'attentionWithoutHost',
  notificationFailures: 'attentionNotificationFailures',
  unanswered: 'attentionUnanswered',
} as const;

/** Whether the person's role is among a route's roles (docs/security.md). */
const mayCall = (allowed: readonly Role[], session: ConsoleSession) =>
  allowed.includes(callerRoleOf(session.account.role));

/** Reads every part of the day at once; each may fail alone (a host's session may not read the company's counts). */
async function readDay(api: ReturnType<typeof useConsole>['api'], session: ConsoleSession): Promise<Day> {
  const timeZone = session.company.timeZone;
  const parts = await Promise.allSettled([
    api.get<TodayCounts>('/v1/today'),
    waitingVisits(api, decidesFor(session)),
    insideVisits(api),
    todaysInvitees(api, timeZone),
    api.get<{ visits: Visit[] }>('/v1/visits/history?limit=1000'),
    // Only the desk's staff read the company's deliveries: the others do not ask (each refusal is an error logged).
    mayCall(roles.staff, session)
      ? api.get<{ deliveries: Delivery[] }>('/v1/integration/notifications/deliveries?limit=100')
      : undefined,
    api.get<{ visitorTypes: TypeName[] }>('/v1/visitortypes'),
  ] as const);
  const problems: string[] = [];
  const take = <T,>(part: PromiseSettledResult<T>): T | undefined => {
    if (part.status === 'fulfilled') return part.value;
    if (!(part.reason instanceof ApiProblem && part.reason.type === 'FORBIDDEN'))
      problems.push(problemCode(part.reason));
    return undefined;
  };
  const [counts, waiting, inside, invitees, history, deliveries, types] = parts;
  return {
    counts: take(counts),
    waiting: take(waiting),
    // Those waiting for approval are in their own list (and not in the count of who is inside).
    inside: take(inside)
      ?.filter((visit) => visitState(visit) === 'inside')
      .sort((a, b) => Date.parse(b.checkinAt) - Date.parse(a.checkinAt)),
    expected: take(invitees)
      ?.filter((invitee) => invitee.status === 'confirmed')
      .sort((a, b) => Date.parse(a.expectedAt) - Date.parse(b.expectedAt)),
    blocked: take(history)?.visits.filter((visit) => visitState(visit) === 'blocked'),
    failures: take(deliveries)?.deliveries.filter(
      (delivery) => delivery.status === 'failed' && isToday(timeZone, delivery.createdAt),
    ),
    types: take(types)?.visitorTypes ?? [],
    problems,
  };
}

/** One list of the day, titled with its count: a table on a desk, cards on a phone (`data-label`). */
function DaySection<Row extends { id: string }>(props: {
  id: string;
  title: string;
  empty: string;
  rows: readonly Row[];
  columns: readonly (readonly [string, (row: Row) => ReactNode])[];
}) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>
        {props.title} ({props.rows.length})
      </h2>
      {props.rows.length === 0 ? (
        <p>{props.empty}</p>
      ) : (
        <table className="console-table">
          <thead>
            <tr>
              {props.columns.map(([label]) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <tr key={row.id}>
                {props.columns.map(([label, cell]) => (
                  <td key={label} data-label={label}>
                    {cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Today (docs/console.md, "Today"): the day at a glance and what needs someone, then who is waiting for approval
 * (decided here), who is inside, who is still expected, who was blocked at the door and which messages to hosts
 * failed. It follows the company live: a check-in anywhere shows here without a reload.
 */
export default function Today() {
  const { api, lang, session } = useConsole();
  const words = useWords(todayWords);
  const timeZone = session.company.timeZone;
  const load = useCallback(() => readDay(api, session), [api, session]);
  const { value: day, problem, reload } = useLiveLoad(load, ['visits', 'invitees', 'hosts', 'settings']);
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean }>();
  const time = (at: string) => timeOfDay(lang, timeZone, at);
  if (!day) {
    return (
      <p role={problem === undefined ? 'status' : 'alert'}>
        {problem === undefined ? words.loading : words.failed(problemCode(problem))}
      </p>
    );
  }
  const attention = day.counts ? attentionOf(day.counts, {}) : [];
  return (
    <div className="today-page">
      <p className="today-live">{words.live}</p>
      <p role="status" className={outcome?.failed ? 'console-problem' : 'console-outcome'}>
        {outcome?.text}
      </p>
      {day.problems.map((code) => (
        <p key={code} role="alert" className="console-problem">
          {words.failed(code)}
        </p>
      ))}
      {day.counts && (
        <section aria-labelledby="today-counts">
          <h2 id="today-counts" className="sr-only">
            {words.counts}
          </h2>
          <ul className="today-tiles">
            {overview.map(([kind]) => (
              <li key={kind} className={`today-tile${day.counts && day.counts[kind] > 0 ? ` today-tile-${kind}` : ''}`}>
                <span className="today-tile-number">{day.counts?.[kind]}</span>
                <span className="today-tile-label">{words[kind]}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {attention.length > 0 && (
        <section aria-labelledby="today-attention" className="console-card today-attention">
          <h2 id="today-attention">{words.attention}</h2>
          <ul>
            {attention.map((item) => (
              <li key={item.kind}>{words[attentionWord[item.kind]](item.count)}</li>
            ))}
          </ul>
        </section>
      )}
      {day.waiting && (
        <section aria-labelledby="today-waiting">
          <h2 id="today-waiting">{words.waiting}</h2>
          {day.waiting.length === 0 ? (
            <p>{words.nobodyWaiting}</p>
          ) : (
            <ul className="approval-list">
              {day.waiting.map((visit) => (
                <ApprovalCard
                  key={visit.id}
                  visit={visit}
                  types={day.types}
                  onDecided={(text, failed) => {
                    setOutcome({ text, failed });
                    void reload();
                  }}
                />
              ))}
            </ul>
          )}
        </section>
      )}
      {day.inside && (
        <DaySection
          id="today-inside"
          title={words.inside}
          empty={words.nobodyInside}
          rows={day.inside}
          columns={[
            [words.name, (visit) => visit.name || words.unnamed],
            [words.company, (visit) => visit.company],
            [words.host, (visit) => visit.host?.name ?? words.noHost],
            [words.arrivedAt, (visit) => time(visit.checkinAt)],
          ]}
        />
      )}
      {day.expected && (
        <DaySection
          id="today-expected"
          title={words.expected}
          empty={words.nobodyExpected}
          rows={day.expected}
          columns={[
            [words.expectedAt, (invitee) => time(invitee.expectedAt)],
            [words.name, (invitee) => invitee.name || words.unnamed],
            [words.company, (invitee) => invitee.company],
            [words.host, (invitee) => invitee.host?.name ?? words.noHost],
          ]}
        />
      )}
      {day.blocked && (
        <DaySection
          id="today-blocked"
          title={words.blocked}
          empty={words.nobodyBlocked}
          rows={day.blocked}
          columns={[
            [words.at, (visit) => time(visit.checkinAt)],
            [words.name, (visit) => visit.name || words.unnamed],
            [words.host, (visit) => visit.host?.name ?? words.noHost],
            [words.why, (visit) => visit.statusNote],
          ]}
        />
      )}
      {day.failures && (
        <DaySection
          id="today-failures"
          title={words.notificationFailures}
          empty={words.noFailures}
          rows={day.failures}
          columns={[
            [words.at, (delivery) => time(delivery.createdAt)],
            [words.host, (delivery) => delivery.hostName ?? words.noHost],
            [words.channel, (delivery) => delivery.channel],
            [words.error, (delivery) => delivery.lastError],
          ]}
        />
      )}
    </div>
  );
}
