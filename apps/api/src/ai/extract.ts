import { readFile } from 'node:fs/promises';

import { stripHtml } from '@ccp/schemas';
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { PDFParse } from 'pdf-parse';

import { contentMatches } from '../lib/sniff.ts';
import { pdfPageToBlocks, textToBlocks } from './text.ts';
import type { TBlock } from './text.ts';

// Text extraction from the document types of the AI import: txt, docx (mammoth), pptx (the slide
// XML inside the zip, read with jszip) and pdf (pdf-parse). Video and audio go to transcription.

export const DOCUMENT_TYPES = ['txt', 'docx', 'pptx', 'pdf'] as const;
export type TDocumentType = (typeof DOCUMENT_TYPES)[number];

export const isDocumentType = (extension: string): extension is TDocumentType =>
  (DOCUMENT_TYPES as readonly string[]).includes(extension);

/** The file is not what its name says, or is damaged; the route answers 422. */
export class UnreadableFileError extends Error {
  constructor(cause?: unknown) {
    super('The file could not be read.', { cause });
    this.name = 'UnreadableFileError';
  }
}

/** Text bytes as a string: UTF-8 (with or without BOM), UTF-16 with a BOM, else Windows-1252. */
export const decodeText = (bytes: Buffer): string => {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
};

const BLOCK_TAGS = /<(h[1-6]|p|li|td|th)\b[^>]*>([\s\S]*?)<\/\1>/gi;

/** mammoth's HTML as blocks: h1–h6 are headings; paragraphs, list items and cells paragraphs. */
const htmlToBlocks = (html: string): TBlock[] => {
  const blocks: TBlock[] = [];
  for (const match of html.matchAll(BLOCK_TAGS)) {
    const tag = (match[1] ?? '').toLowerCase();
    // A cell holding paragraphs is read through its paragraphs.
    if ((tag === 'td' || tag === 'th') && /<p\b/i.test(match[2] ?? '')) continue;
    const text = stripHtml(match[2] ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) blocks.push({ kind: tag.startsWith('h') ? 'heading' : 'paragraph', text });
  }
  return blocks;
};

const readDocx = async (bytes: Buffer): Promise<TBlock[]> => {
  const { value } = await mammoth.convertToHtml({ buffer: bytes });
  return htmlToBlocks(value);
};

const slideNumber = (name: string) => Number(/slide(\d+)\.xml$/.exec(name)?.[1] ?? 0);

const textRuns = (xml: string): string =>
  [...xml.matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>/g)]
    .map((match) => stripHtml(match[1] ?? ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

/** One slide: its title shape (or a short first line) as a heading, the rest as one paragraph. */
const slideBlocks = (xml: string): TBlock[] => {
  let title: string | null = null;
  const lines: string[] = [];
  for (const shape of xml.matchAll(/<p:sp\b[\s\S]*?<\/p:sp>/g)) {
    const shapeXml = shape[0];
    const paragraphs = [...shapeXml.matchAll(/<a:p\b[\s\S]*?<\/a:p>/g)]
      .map((paragraph) => textRuns(paragraph[0]))
      .filter(Boolean);
    if (title === null && /<p:ph\b[^>]*type="(?:title|ctrTitle)"/.test(shapeXml)) {
      title = paragraphs.join(' ') || null;
    } else lines.push(...paragraphs);
  }
  if (title === null && lines.length > 1 && (lines[0]?.length ?? 0) <= 100) {
    title = lines.shift() ?? null;
  }
  const sentences = lines.map((line) => (/[.!?…:;]["'”’)]*$/u.test(line) ? line : `${line}.`));
  const blocks: TBlock[] = [];
  if (title) blocks.push({ kind: 'heading', text: title });
  if (sentences.length > 0) blocks.push({ kind: 'paragraph', text: sentences.join(' ') });
  return blocks;
};

const readPptx = async (bytes: Buffer): Promise<TBlock[]> => {
  const zip = await JSZip.loadAsync(bytes);
  const slides = Object.keys(zip.files)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => slideNumber(a) - slideNumber(b));
  if (slides.length === 0) throw new UnreadableFileError();
  const blocks: TBlock[] = [];
  for (const name of slides) {
    const xml = await zip.file(name)?.async('string');
    if (xml) blocks.push(...slideBlocks(xml));
  }
  return blocks;
};

const readPdf = async (bytes: Buffer): Promise<TBlock[]> => {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText();
    return result.pages.flatMap((page) => pdfPageToBlocks(page.text));
  } finally {
    await parser.destroy();
  }
};

/** The text of a document as heading and paragraph blocks; UnreadableFileError if it is not one. */
export const extractDocument = async (filePath: string, type: TDocumentType): Promise<TBlock[]> => {
  const bytes = await readFile(filePath);
  if (type === 'txt') return textToBlocks(decodeText(bytes));
  // The bytes must match the name: a renamed file is refused before a library parses it.
  if (!contentMatches(type, bytes.subarray(0, 4096))) throw new UnreadableFileError();
  try {
    if (type === 'docx') return await readDocx(bytes);
    if (type === 'pptx') return await readPptx(bytes);
    return await readPdf(bytes);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(error);
  }
};
