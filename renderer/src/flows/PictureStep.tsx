import { type ComponentProps, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, Screen, Spinner } from '../components/ui.tsx';
import { useCamera, useCountdown } from '../hooks.ts';
import type { FieldMode } from '../types.ts';

/** The badge picture: 480×360, JPEG of quality 0.85, about 30 KB. */
const width = 480;
const height = 360;

/** The video's current frame, cropped to 4:3 from its middle, as a JPEG data URL. */
function capture(video: HTMLVideoElement): string {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  const scale = Math.min(video.videoWidth / width, video.videoHeight / height);
  const sw = width * scale;
  const sh = height * scale;
  context.drawImage(video, (video.videoWidth - sw) / 2, (video.videoHeight - sh) / 2, sw, sh, 0, 0, width, height);
  return canvas.toDataURL('image/jpeg', 0.85);
}

/** Seconds counted down on the preview before the picture is taken: time to look up and settle in the frame. */
const countdownSeconds = 3;

/** The 3-2-1 over the preview, read out too; at zero the picture is taken. */
function Countdown({ onEnd }: { onEnd: () => void }) {
  const left = useCountdown(countdownSeconds, onEnd);
  return (
    <p className="camera-countdown" aria-live="assertive">
      {left > 0 ? left : ''}
    </p>
  );
}

/**
 * Picture capture: the camera's preview with an oval to put one's face in, a 3-2-1, the picture taken and shown the
 * same way round as the preview (a mirror: the stored picture is the camera's, the right way round for others),
 * retaken at will. Without a camera (none, refused,
 * broken) the visitor goes on without a picture, even where it is required: a kiosk never strands anyone.
 */
export function PictureStep(props: {
  frame: Omit<ComponentProps<typeof Screen>, 'children' | 'actions'>;
  mode: FieldMode;
  picture: string | undefined;
  onPicture: (picture: string | undefined) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const { videoRef, state } = useCamera('user');
  const [retaking, setRetaking] = useState(props.picture === undefined);
  const [counting, setCounting] = useState(false);
  const showing = props.picture !== undefined && !retaking;
  const take = () => {
    setCounting(false);
    const video = videoRef.current;
    if (!video || video.videoWidth === 0) return;
    props.onPicture(capture(video));
    setRetaking(false);
  };
  const skip = (
    <button
      type="button"
      className="btn btn-secondary"
      onClick={() => {
        props.onPicture(undefined);
        props.onNext();
      }}
    >
      {t('picture.skip')}
    </button>
  );
  let actions = null;
  if (showing) {
    actions = (
      <>
        <button type="button" className="btn btn-secondary" onClick={() => setRetaking(true)}>
          {t('picture.retake')}
        </button>
        <button type="button" className="btn btn-primary btn-main" onClick={props.onNext}>
          {t('picture.use')}
        </button>
      </>
    );
  } else if (state === 'live') {
    actions = (
      <>
        {props.mode === 'optional' && skip}
        <button
          type="button"
          className="btn btn-primary btn-main"
          disabled={counting}
          onClick={() => setCounting(true)}
        >
          {counting ? t('picture.counting') : t('picture.take')}
        </button>
      </>
    );
  } else if (state === 'unavailable') {
    actions = skip;
  }
  return (
    <Screen {...props.frame} actions={actions}>
      <p className="lead">
        {t('picture.intro')} {!showing && state === 'live' && t('picture.frameHint')}
      </p>
      <div className="camera">
        {showing && <img className="camera-picture mirrored" src={props.picture} alt={t('picture.preview')} />}
        <div className="camera-view" hidden={showing || state !== 'live'}>
          <video ref={videoRef} className="camera-video mirrored" muted playsInline aria-label={t('picture.live')} />
          <div className="face-frame" aria-hidden="true" />
          {counting && <Countdown onEnd={take} />}
        </div>
        {!showing && state === 'starting' && <Spinner label={t('picture.starting')} />}
        {!showing && state === 'unavailable' && <Notice kind="info">{t('picture.noCamera')}</Notice>}
      </div>
    </Screen>
  );
}
