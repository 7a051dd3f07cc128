import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** A signature drawn on the pad (a PNG data URL), or the signer's name typed (for a visitor without a pointer). */
export type NdaSignature = { kind: 'drawn'; png: string } | { kind: 'typed'; name: string };

/** What the signed document holds: the agreement, then the signature with the signer's name and the date. */
export interface SignedNda {
  title: string;
  text: string;
  signature: NdaSignature;
  signerName: string;
  signedAt: Date;
  /** The date as the signer reads it, in their language and the company's zone. */
  signedAtText: string;
  labels: { signedBy: string; signedAt: string; typedSignature: string };
}

const pageSize: [number, number] = [595.28, 841.89]; // A4 in points
const margin = 56;
const bodySize = 11;
const titleSize = 16;
const typedSignatureSize = 20;
const leading = 1.4;
const contentWidth = pageSize[0] - 2 * margin;
/** Pixels per point of text drawn as a picture: sharp when printed. */
const rasterScale = 3;

/**
 * The standard PDF fonts write Western European text only. A line in another script (Chinese, Cyrillic…) is drawn
 * with the system's fonts onto a canvas and placed as a picture: the document then shows any language, and keeps
 * selectable text wherever the standard font can write it.
 */
function canWrite(font: PDFFont, text: string): boolean {
  try {
    font.encodeText(text);
    return true;
  } catch {
    return false;
  }
}

const canvasFont = (size: number, bold: boolean) => `${bold ? 'bold ' : ''}${size * rasterScale}px sans-serif`;

function measureOnCanvas(text: string, size: number, bold: boolean): number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.font = canvasFont(size, bold);
  return context.measureText(text).width / rasterScale;
}

/** Breaks a paragraph into lines no wider than `width`: at spaces, and inside words (or CJK runs) too long. */
function wrap(paragraph: string, width: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  const tokens = paragraph.match(/\s+|[^\s]+/g) ?? [''];
  for (const token of tokens) {
    const candidate = line + token;
    if (measure(candidate.trimEnd()) <= width) {
      line = candidate;
      continue;
    }
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = /^\s+$/.test(token) ? '' : token;
    while (measure(line) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && measure(line.slice(0, cut)) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  lines.push(line.trimEnd());
  return lines;
}

class Writer {
  private page: PDFPage;
  private y: number;

  constructor(
    private readonly pdf: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
  ) {
    this.page = this.newPage();
    this.y = pageSize[1] - margin;
  }

  private newPage(): PDFPage {
    this.page = this.pdf.addPage(pageSize);
    this.y = pageSize[1] - margin;
    return this.page;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  ensure(height: number): void {
    if (this.y - height < margin) this.newPage();
  }

  gap(points: number): void {
    this.y -= points;
  }

  async paragraph(text: string, size: number, bold = false): Promise<void> {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const native = canWrite(font, text);
    const measure = native
      ? (t: string) => font.widthOfTextAtSize(t, size)
      : (t: string) => measureOnCanvas(t, size, bold);
    for (const line of wrap(text, contentWidth, measure)) {
      const height = size * leading;
      this.ensure(height);
      this.y -= height;
      if (line === '') continue;
      if (native) this.page.drawText(line, { x: margin, y: this.y + size * 0.3, size, font, color: rgb(0, 0, 0) });
      else await this.rasterLine(line, size, bold, measure(line));
    }
  }

  private async rasterLine(line: string, size: number, bold: boolean, width: number): Promise<void> {
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(width * rasterScale) + 2;
    canvas.height = Math.ceil(size * leading * rasterScale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.font = canvasFont(size, bold);
    context.fillStyle = '#000';
    context.textBaseline = 'alphabetic';
    context.fillText(line, 0, size * 1.05 * rasterScale);
    const image = await this.pdf.embedPng(canvas.toDataURL('image/png'));
    this.page.drawImage(image, {
      x: margin,
      y: this.y,
      width: canvas.width / rasterScale,
      height: canvas.height / rasterScale,
    });
  }

  async image(png: string, maxWidth: number, maxHeight: number): Promise<void> {
    const image = await this.pdf.embedPng(png);
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height, 1);
    const width = image.width * scale;
    const height = image.height * scale;
    this.ensure(height);
    this.y -= height;
    this.page.drawImage(image, { x: margin, y: this.y, width, height });
    this.page.drawLine({
      start: { x: margin, y: this.y - 2 },
      end: { x: margin + maxWidth, y: this.y - 2 },
      thickness: 0.75,
      color: rgb(0.3, 0.3, 0.3),
    });
  }
}

/** The signed agreement as a PDF, answered in Base64 (the form POST /v1/visits takes as `visitNda`). */
export async function signedNdaPdf(input: SignedNda): Promise<string> {
  const pdf = await PDFDocument.create();
  const fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  const writer = new Writer(pdf, fonts);
  await writer.paragraph(input.title, titleSize, true);
  writer.gap(bodySize);
  for (const paragraph of input.text.replace(/\r\n?/g, '\n').split('\n')) await writer.paragraph(paragraph, bodySize);
  // The signature block stays in one piece: name, date and signature on the same page.
  writer.gap(2 * bodySize);
  writer.ensure(170);
  await writer.paragraph(`${input.labels.signedBy}: ${input.signerName}`, bodySize, true);
  await writer.paragraph(`${input.labels.signedAt}: ${input.signedAtText}`, bodySize);
  writer.gap(bodySize);
  if (input.signature.kind === 'drawn') {
    await writer.image(input.signature.png, 240, 100);
  } else {
    // A typed signature says so on the page itself, not only in the service's record of the visit.
    await writer.paragraph(input.signature.name, typedSignatureSize, true);
    await writer.paragraph(input.labels.typedSignature, bodySize);
  }
  pdf.setTitle(input.title);
  pdf.setKeywords([`signature:${input.signature.kind}`]);
  pdf.setAuthor(input.signerName);
  pdf.setSubject(`${input.labels.signedBy}: ${input.signerName}`);
  pdf.setCreator('Portaria kiosk');
  pdf.setProducer('Portaria');
  pdf.setCreationDate(input.signedAt);
  pdf.setModificationDate(input.signedAt);
  return pdf.saveAsBase64();
}
