import { useEffect, useState } from 'react';

/** A QR code drawn in the page (the qrcode library, loaded when first needed) as an SVG image. */
export function QrImage({ text, label, className }: { text: string; label: string; className?: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((qr) => qr.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((svg) => {
        if (current) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      });
    return () => {
      current = false;
    };
  }, [text]);
  return src ? <img className={className ?? 'qr'} src={src} alt={label} /> : <span className={className ?? 'qr'} />;
}
