import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import { Check } from '../settings/kit.tsx';
import { attentionOf, attentionRose, overview, type Seen, type Today, type TodayTab } from './attention.ts';
import { useLive } from './kit.tsx';

/**
 * The day's counts, read now and then as the desk's lists are (`useLive`), and again after each change made through
 * the `api` it answers, which the desk's panels use.
 */
export function useToday(api: Api) {
  const load = useCallback(() => api.get<Today>('/v1/today'), [api]);
  const { value, reload } = useLive<Today>(load);
  // What the desk itself changes (a visit allowed, a person checked out) shows in the counts at once.
  const countingApi = useMemo<Api>(
    () => ({
      ...api,
      send: <T,>(method: Parameters<Api['send']>[0], path: string, body?: unknown) =>
        api.send<T>(method, path, body).finally(() => void reload()),
    }),
    [api, reload],
  );
  return { today: value, api: countingApi };
}

/** The chime's setting is the device's (it is the device that sounds), kept in its browser storage; off at first. */
const chimeKey = 'portaria.frontDesk.chime';
let audio: AudioContext | undefined;

/**
 * A short, soft two-note tone made with WebAudio (no sound file). Browsers let a page sound only after the user
 * acted on it: the desk plays it only once staff turned the chime on, with a tap, after typing the PIN.
 */
function playChime(): void {
  audio ??= new AudioContext();
  void audio.resume();
  const start = audio.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.18, 1320],
  ] as const) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.15, start + offset);
    volume.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.35);
    tone.connect(volume).connect(audio.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.35);
  }
}

function useChimeSetting() {
  const [on, setOn] = useState(() => {
    try {
      return localStorage.getItem(chimeKey) === 'on';
    } catch {
      return false;
    }
  });
  const change = (next: boolean) => {
    setOn(next);
    try {
      localStorage.setItem(chimeKey, next ? 'on' : 'off');
    } catch {
      // A browser that keeps nothing: the setting lasts while the desk is open.
    }
    // Turned on with a tap: the tone that tap allows also tells staff what they will hear.
    if (next) playChime();
  };
  return [on, change] as const;
}

/**
 * The top of the desk: a banner naming what needs someone now (a visitor blocked at the door, a visit waiting, a
 * visitor without a host, messages to hosts not going out, a host who has not answered about their visitor), each a way to its tab, with "Seen" and the optional
 * chime; and the day at a glance, each count opening the tab that lists it.
 */
export function TodayOverview(props: { today: Today | undefined; onOpen: (tab: TodayTab) => void }) {
  const { today, onOpen } = props;
  const { t } = useTranslation();
  const [seen, setSeen] = useState<Seen>({});
  const [chimeOn, setChimeOn] = useChimeSetting();
  const previous = useRef<Today>(undefined);
  useEffect(() => {
    if (!today) return;
    if (chimeOn && attentionRose(previous.current, today)) playChime();
    previous.current = today;
  }, [today, chimeOn]);
  const attention = today ? attentionOf(today, seen) : [];
  return (
    <div className="today">
      <h2 className="sr-only">{t('today.title')}</h2>
      <div className="attention" role="status">
        {today && attention.length > 0 && (
          <div className="attention-banner">
            <p className="attention-title">{t('today.attention')}</p>
            <ul className="attention-list">
              {attention.flatMap((item) =>
                // A host who has not answered is named, one item per visitor; the other kinds are counted.
                item.kind === 'unanswered' ? (
                  today.unansweredHosts.map((late) => (
                    <li key={`unanswered-${late.visitId}`}>
                      <button type="button" className="btn btn-small attention-item" onClick={() => onOpen(item.tab)}>
                        {t('today.attentionItem.unanswered', { host: late.hostName, visitor: late.visitorName })}
                      </button>
                    </li>
                  ))
                ) : (
                  <li key={item.kind}>
                    <button type="button" className="btn btn-small attention-item" onClick={() => onOpen(item.tab)}>
                      {t(`today.attentionItem.${item.kind}`, { count: item.count })}
                    </button>
                  </li>
                ),
              )}
            </ul>
            <button
              type="button"
              className="btn btn-small btn-secondary"
              onClick={() =>
                setSeen({ ...Object.fromEntries(attention.map((a) => [a.kind, a.count])), day: today.day })
              }
            >
              {t('today.seen')}
            </button>
          </div>
        )}
      </div>
      <div className="today-bar">
        <ul className="today-counts">
          {overview.map(([kind, tab]) => (
            <li key={kind}>
              <button
                type="button"
                className={`today-count${today && today[kind] > 0 ? ` today-${kind}` : ''}`}
                onClick={() => onOpen(tab)}
              >
                <span className="today-number">{today ? today[kind] : '–'}</span>
                <span className="today-label">{t(`today.${kind}`)}</span>
              </button>
            </li>
          ))}
        </ul>
        <Check label={t('today.chime')} checked={chimeOn} onChange={setChimeOn} />
      </div>
    </div>
  );
}
