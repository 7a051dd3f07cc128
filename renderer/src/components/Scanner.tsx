import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCamera } from '../hooks.ts';
import { Notice, Spinner } from './ui.tsx';

type Decode = typeof import('jsqr')['default'];

/** Frames are read at most this often, scaled down to this width: enough for a code held up to the camera. */
const everyMs = 150;
const scanWidth = 480;

/**
 * The camera looking for QR codes (jsQR, loaded when first needed: Chromium on Linux has no BarcodeDetector). Each
 * text read is handed on once; while `paused`, frames are not read. Without a camera it says so, and the screen's
 * search stays the way on.
 */
export function Scanner({ onCode, paused }: { onCode: (text: string) => void; paused: boolean }) {
  const { t } = useTranslation();
  const { videoRef, state } = useCamera('environment');
  const handler = useRef(onCode);
  handler.current = onCode;
  const last = useRef<{ text: string; at: number } | undefined>(undefined);

  useEffect(() => {
    if (state !== 'live' || paused) return;
    let decode: Decode | undefined;
    let stopped = false;
    import('jsqr').then((module) => {
      // A UMD module: the bundler's default is the function, which also carries itself as `default`.
      const loaded = module.default as unknown as Decode & { default?: Decode };
      decode = loaded.default ?? loaded;
    });
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const timer = setInterval(() => {
      const video = videoRef.current;
      if (stopped || !decode || !context || !video || video.videoWidth === 0) return;
      const scale = Math.min(1, scanWidth / video.videoWidth);
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const frame = context.getImageData(0, 0, canvas.width, canvas.height);
      const found = decode(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' });
      if (!found?.data) return;
      // The same code held in front of the camera is one reading, not one per frame.
      const now = Date.now();
      const previous = last.current;
      if (previous && previous.text === found.data && now - previous.at < 3000) return;
      last.current = { text: found.data, at: now };
      handler.current(found.data);
    }, everyMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [state, paused, videoRef]);

  return (
    <div className="scanner">
      <video
        ref={videoRef}
        className="camera-video"
        hidden={state !== 'live'}
        muted
        playsInline
        aria-label={t('scanner.video')}
      />
      {state === 'starting' && <Spinner label={t('scanner.looking')} />}
      {state === 'live' && <p className="scanner-hint">{t('scanner.looking')}</p>}
      {state === 'unavailable' && <Notice kind="info">{t('scanner.noCamera')}</Notice>}
    </div>
  );
}
