import { useCallback, useEffect, useRef, useState } from 'react';

const activityEvents = ['pointerdown', 'keydown', 'input', 'wheel', 'touchstart'] as const;

/**
 * Calls `onIdle` after `timeoutMs` without a touch or a key; during the last `warnMs` it answers the seconds left,
 * so the screen can ask "are you still there?". Any touch starts the count again.
 */
export function useIdle(enabled: boolean, timeoutMs: number, warnMs: number, onIdle: () => void) {
  const last = useRef(Date.now());
  const [remaining, setRemaining] = useState<number | null>(null);
  const idle = useRef(onIdle);
  idle.current = onIdle;
  const stay = useCallback(() => {
    last.current = Date.now();
    setRemaining(null);
  }, []);
  useEffect(() => {
    if (!enabled) return;
    stay();
    for (const name of activityEvents) document.addEventListener(name, stay, { capture: true, passive: true });
    const timer = setInterval(() => {
      const left = timeoutMs - (Date.now() - last.current);
      if (left <= 0) {
        setRemaining(null);
        idle.current();
      } else setRemaining(left <= warnMs ? Math.ceil(left / 1000) : null);
    }, 250);
    return () => {
      clearInterval(timer);
      for (const name of activityEvents) document.removeEventListener(name, stay, { capture: true });
    };
  }, [enabled, timeoutMs, warnMs, stay]);
  return { remaining, stay };
}

/** Seconds left of a count-down that calls `onEnd` at zero (a screen that returns to the start by itself). */
export function useCountdown(seconds: number, onEnd: () => void): number {
  const [left, setLeft] = useState(seconds);
  const end = useRef(onEnd);
  end.current = onEnd;
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const now = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(now);
      if (now === 0) {
        clearInterval(timer);
        end.current();
      }
    }, 250);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}

export type CameraState = 'starting' | 'live' | 'unavailable';

/** How long the camera may take to start before the kiosk goes on without it. */
const cameraStartMs = 8000;

/**
 * The camera's picture in a <video>: `unavailable` when there is no camera, permission is refused, or it does not
 * start in time, so every screen that uses it has a way on without it. The camera is released on unmount.
 */
export function useCamera(facingMode: 'user' | 'environment') {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>('starting');
  useEffect(() => {
    let stream: MediaStream | undefined;
    let stopped = false;
    const giveUp = setTimeout(() => setState((s) => (s === 'starting' ? 'unavailable' : s)), cameraStartMs);
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera API');
      const media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode, width: { ideal: 640 }, height: { ideal: 480 } },
        audio: false,
      });
      if (stopped) {
        for (const track of media.getTracks()) track.stop();
        return;
      }
      stream = media;
      const video = videoRef.current;
      if (video) {
        video.srcObject = media;
        await video.play().catch(() => undefined);
      }
      setState('live');
    };
    start().catch(() => {
      if (!stopped) setState('unavailable');
    });
    return () => {
      stopped = true;
      clearTimeout(giveUp);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [facingMode]);
  return { videoRef, state };
}

/** Whether a CSS media query matches, following its changes (a tablet turned, a window resized). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const changed = () => setMatches(list.matches);
    changed();
    list.addEventListener('change', changed);
    return () => list.removeEventListener('change', changed);
  }, [query]);
  return matches;
}
