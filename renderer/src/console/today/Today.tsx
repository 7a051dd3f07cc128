import { useCallback, useState } from 'react';
import { ApiProblem } from '../../api.ts';
import { attentionOf, overview, type Today as TodayCounts } from '../../frontdesk/attention.ts';
import { visitState } from '../../frontdesk/visit-state.ts';
import { type InsideVisit, insideVisits, todaysInvitees } from '../../lists.ts';
import { isToday, timeOfDay } from '../../time.ts';
import type { Invitee, Visit } from '../../types.ts';
import { ApprovalCard, type TypeName } from '../approvals/ApprovalCard.tsx';
import '../approvals/approvals.css';
import { type WaitingVisit, waitingVisits } from '../approvals/waiting.ts';
import { useConsole } from '../context.ts';
import { useLiveLoad } from '../live-load.ts';
import { problemCode } from '../problem-code.ts';
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

/** Reads every part of the day at once; each may fail alone (a host's session may not read the company's counts). */
async function readDay(api: ReturnType<typeof useConsole>['api'], timeZone: string): Promise<Day> {
  const parts = await Promise.allSettled([
    api.get<TodayCounts>('/v1/today'),
    waitingVisits(api),
    insideVisits(api),
    todaysInvitees(api, timeZone),
    api.get<{ visits: Visit[] }>('/v1/visits/history?limit=1000'),
    api.get<{ deliveries: Delivery[] }>('/v1/integration/notifications/deliveries?limit=100'),
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
    inside: take(inside)?.sort((a, b) => Date.parse(b.checkinAt) - Date.parse(a.checkinAt)),
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

/**
 * Today (docs/console.md, "Today"): the day at a glance and what needs someone, then who is waiting for approval
 * (decided here), who is inside, who is still expected, who was blocked at the door and which messages to hosts
 * failed. It follows the company live: a check-in anywhere shows here without a reload.
 */
export default function Today() {
  const { api, lang, session } = useConsole();
  const words = useWords(todayWords);
  const timeZone = session.company.timeZone;
  const load = useCallback(() => readDay(api, timeZone), [api, timeZone]);
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
        <section aria-labelledby="today-inside">
          <h2 id="today-inside">
            {words.inside} ({day.inside.length})
          </h2>
          {day.inside.length === 0 ? (
            <p>{words.nobodyInside}</p>
          ) : (
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{words.name}</th>
                  <th scope="col">{words.company}</th>
                  <th scope="col">{words.host}</th>
                  <th scope="col">{words.arrivedAt}</th>
                </tr>
              </thead>
              <tbody>
                {day.inside.map((visit) => (
                  <tr key={visit.id}>
                    <td data-label={words.name}>{visit.name || words.unnamed}</td>
                    <td data-label={words.company}>{visit.company}</td>
                    <td data-label={words.host}>{visit.host?.name ?? words.noHost}</td>
                    <td data-label={words.arrivedAt}>{time(visit.checkinAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {day.expected && (
        <section aria-labelledby="today-expected">
          <h2 id="today-expected">
            {words.expected} ({day.expected.length})
          </h2>
          {day.expected.length === 0 ? (
            <p>{words.nobodyExpected}</p>
          ) : (
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{words.expectedAt}</th>
                  <th scope="col">{words.name}</th>
                  <th scope="col">{words.company}</th>
                  <th scope="col">{words.host}</th>
                </tr>
              </thead>
              <tbody>
                {day.expected.map((invitee) => (
                  <tr key={invitee.id}>
                    <td data-label={words.expectedAt}>{time(invitee.expectedAt)}</td>
                    <td data-label={words.name}>{invitee.name || words.unnamed}</td>
                    <td data-label={words.company}>{invitee.company}</td>
                    <td data-label={words.host}>{invitee.host?.name ?? words.noHost}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {day.blocked && (
        <section aria-labelledby="today-blocked">
          <h2 id="today-blocked">
            {words.blocked} ({day.blocked.length})
          </h2>
          {day.blocked.length === 0 ? (
            <p>{words.nobodyBlocked}</p>
          ) : (
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{words.at}</th>
                  <th scope="col">{words.name}</th>
                  <th scope="col">{words.host}</th>
                  <th scope="col">{words.why}</th>
                </tr>
              </thead>
              <tbody>
                {day.blocked.map((visit) => (
                  <tr key={visit.id}>
                    <td data-label={words.at}>{time(visit.checkinAt)}</td>
                    <td data-label={words.name}>{visit.name || words.unnamed}</td>
                    <td data-label={words.host}>{visit.host?.name ?? words.noHost}</td>
                    <td data-label={words.why}>{visit.statusNote}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {day.failures && (
        <section aria-labelledby="today-failures">
          <h2 id="today-failures">
            {words.notificationFailures} ({day.failures.length})
          </h2>
          {day.failures.length === 0 ? (
            <p>{words.noFailures}</p>
          ) : (
            <table className="console-table">
              <thead>
                <tr>
                  <th scope="col">{words.at}</th>
                  <th scope="col">{words.host}</th>
                  <th scope="col">{words.channel}</th>
                  <th scope="col">{words.error}</th>
                </tr>
              </thead>
              <tbody>
                {day.failures.map((delivery) => (
                  <tr key={delivery.id}>
                    <td data-label={words.at}>{time(delivery.createdAt)}</td>
                    <td data-label={words.host}>{delivery.hostName ?? words.noHost}</td>
                    <td data-label={words.channel}>{delivery.channel}</td>
                    <td data-label={words.error}>{delivery.lastError}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </div>
  );
}
