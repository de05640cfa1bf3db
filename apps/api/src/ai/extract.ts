import { open, stat } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { stripHtml } from '@ccp/schemas';
import { SaxesParser } from 'saxes';

import { contentMatches, headOf } from '../lib/sniff.ts';
import { ZipReadError, ZipTooLargeError, openZip } from '../lib/zip.ts';
import type { ZipArchive } from '../lib/zip.ts';
import {
  cleanBlocks,
  contentsLines,
  dropContentsLines,
  dropPageFurniture,
  isContentsTitle,
} from './clean.ts';
import { PDF_HEADING_SCALE, pdfBodySize, pdfLinesToBlocks, textToBlocks } from './text.ts';
import type { TBlock, TPdfLine } from './text.ts';

// Text extraction from the document types of the AI import: txt, docx (its document XML,
// streamed), pptx (the slide XML) and pdf (pdf-parse in a worker thread). Video and audio go to
// transcription.

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

/** The document is beyond DOCUMENT_LIMITS; the route answers 422 naming them. */
export class DocumentTooLargeError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'DocumentTooLargeError';
  }
}

/**
 * Bounds of a document read for the AI import (issue 11: any hostile file answered within
 * seconds, memory bounded). Only the first TEXT_BYTES of a text file are read (the generator uses
 * the first 60,000 characters); a docx or pptx is read part by part from its zip directory, never
 * whole, and its XML may unpack to at most XML_BYTES; a PDF is parsed in memory, so it is capped.
 */
export const DOCUMENT_LIMITS = {
  textBytes: 1024 * 1024,
  zipEntries: 10_000,
  xmlBytes: 64 * 1024 * 1024,
  /**
   * Characters of a document's text passed on: the provider gets the first 60,000; the offline
   * generator segments all it gets (8 MB of text took it past 4 GB and down).
   */
  textChars: 200_000,
  pdfBytes: 50 * 1024 * 1024,
  /**
   * A PDF's reader process may spend this much CPU time and this much memory (pdf.js alone is
   * 150 MB). CPU, not wall time: on a busy machine a plain PDF's reader waits for a core, and a
   * wall-clock bound refused it (seen at load 12: "too large" for a two-page guide).
   */
  pdfMs: 3000,
  /** Wall time a reader may take at all: only where its CPU time cannot be read (not Linux). */
  pdfWallMs: 30_000,
  pdfMemoryMb: 320,
} as const;

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

/** The XML parts of an Office file, read from its zip directory within the XML bound. */
const xmlParts = async (zip: ZipArchive, wanted: (name: string) => boolean) => {
  const names = [...zip.entries.keys()].filter(wanted);
  const declared = names.reduce((sum, name) => sum + zip.entries.get(name)!.uncompressedSize, 0);
  if (declared > DOCUMENT_LIMITS.xmlBytes) {
    throw new DocumentTooLargeError(`its text parts unpack to ${declared} bytes`);
  }
  const parts = new Map<string, string>();
  for (const name of names) {
    parts.set(name, await zip.readText(zip.entries.get(name)!, DOCUMENT_LIMITS.xmlBytes));
  }
  return parts;
};

const withZip = async <T>(filePath: string, read: (zip: ZipArchive) => Promise<T>): Promise<T> => {
  let zip: ZipArchive;
  try {
    zip = await openZip(filePath, { maxEntries: DOCUMENT_LIMITS.zipEntries });
  } catch (error) {
    if (error instanceof ZipTooLargeError) throw new DocumentTooLargeError(error.message);
    throw new UnreadableFileError(error);
  }
  try {
    return await read(zip);
  } catch (error) {
    if (error instanceof ZipTooLargeError) throw new DocumentTooLargeError(error.message);
    if (error instanceof ZipReadError) throw new UnreadableFileError(error);
    throw error;
  } finally {
    zip.close();
  }
};

type TDocxStyle = { heading: boolean; contents: boolean };

/**
 * What each paragraph style of a .docx is, from word/styles.xml: a style's id is in the user's
 * language ("Titolo1", "berschrift1") but a built-in style's name is not ("heading 1", "Title",
 * "toc 1"); an outline level of 0–5 makes a heading too, and a style takes after the one it is
 * based on (a custom "Chapter" style based on Heading 1).
 */
const docxStyles = (xml: string): Map<string, TDocxStyle> => {
  const raw = new Map<string, { name: string; outline: boolean; basedOn: string | null }>();
  for (const match of xml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = /w:styleId="([^"]*)"/.exec(match[1] ?? '')?.[1];
    const body = match[2] ?? '';
    if (!id) continue;
    raw.set(id, {
      name: /<w:name\s+w:val="([^"]*)"/.exec(body)?.[1] ?? id,
      outline: /<w:outlineLvl\s+w:val="[0-5]"/.test(body),
      basedOn: /<w:basedOn\s+w:val="([^"]*)"/.exec(body)?.[1] ?? null,
    });
  }
  const styles = new Map<string, TDocxStyle>();
  const resolve = (id: string, depth = 0): TDocxStyle => {
    const known = styles.get(id);
    if (known) return known;
    const style = raw.get(id);
    const own = style?.name ?? id;
    const base: TDocxStyle =
      style?.basedOn && depth < 10
        ? resolve(style.basedOn, depth + 1)
        : { heading: false, contents: false };
    const contents = /^toc/i.test(own.replace(/\s+/g, '')) || base.contents;
    const resolved = {
      heading:
        !contents && (/^(?:title|heading\s*[1-6])$/i.test(own) || !!style?.outline || base.heading),
      contents,
    };
    styles.set(id, resolved);
    return resolved;
  };
  for (const id of raw.keys()) resolve(id);
  return styles;
};

// A docx's text is read from word/document.xml as it streams: paragraphs and headings (Title
// and Heading 1–6 styles by name, whatever their id, or an outline level), table cells through
// their paragraphs, until DOCUMENT_LIMITS.textChars.
// A DOM of the whole document (mammoth) took 3.5 GB for 60 MB of paragraphs.
const readDocx = (filePath: string): Promise<TBlock[]> =>
  withZip(filePath, async (zip) => {
    const entry = zip.entries.get('word/document.xml');
    if (!entry) throw new UnreadableFileError();
    const styles = docxStyles(
      (await xmlParts(zip, (name) => name === 'word/styles.xml')).get('word/styles.xml') ?? '',
    );
    const blocks: TBlock[] = [];
    let chars = 0;
    let text: string | null = null;
    let heading = false;
    let contents = false;
    let inText = false;
    const parser = new SaxesParser();
    parser.on('opentag', (tag) => {
      const name = tag.name.slice(tag.name.indexOf(':') + 1);
      if (name === 'p') {
        text = '';
        heading = false;
        contents = false;
      } else if (name === 'pStyle' && text !== null) {
        const style = String(
          Object.entries(tag.attributes).find(([key]) => key.endsWith('val'))?.[1] ?? '',
        );
        const known = styles.get(style);
        heading = known?.heading ?? /^(title|heading\s*[1-6])$/i.test(style);
        // Entries of Word's table of contents (TOC 1–9, TOC Heading) are not the text.
        contents = known?.contents ?? /^toc/i.test(style.replace(/\s+/g, ''));
      } else if (name === 'outlineLvl' && text !== null) {
        // A paragraph given an outline level of its own is a heading whatever its style.
        const level = Object.entries(tag.attributes).find(([key]) => key.endsWith('val'))?.[1];
        if (/^[0-5]$/.test(String(level))) heading = true;
      } else if (name === 't' && !tag.isSelfClosing) inText = true;
      else if ((name === 'tab' || name === 'br') && text !== null) text += ' ';
    });
    parser.on('text', (value) => {
      if (inText && text !== null) text += value;
    });
    parser.on('closetag', (tag) => {
      const name = tag.name.slice(tag.name.indexOf(':') + 1);
      if (name === 't') inText = false;
      else if (name === 'p' && text !== null) {
        const clean = text.replace(/\s+/g, ' ').trim();
        if (clean && !contents) {
          blocks.push({ kind: heading ? 'heading' : 'paragraph', text: clean });
          chars += clean.length;
        }
        text = null;
      }
    });
    const decoder = new TextDecoder('utf-8');
    try {
      for await (const chunk of await zip.open(entry, DOCUMENT_LIMITS.xmlBytes)) {
        parser.write(decoder.decode(chunk as Buffer, { stream: true }));
        // Enough text for any course: the rest of the document is not read.
        if (chars >= DOCUMENT_LIMITS.textChars) return blocks;
      }
      parser.close();
    } catch (error) {
      if (error instanceof ZipTooLargeError) throw error;
      throw new UnreadableFileError(error);
    }
    return blocks;
  });

const slideNumber = (name: string) => Number(/slide(\d+)\.xml$/.exec(name)?.[1] ?? 0);

const textRuns = (xml: string): string =>
  [...xml.matchAll(/<a:t(?:\s[^>]*)?>([\s\S]*?)<\/a:t>/g)]
    .map((match) => stripHtml(match[1] ?? ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

/** Shapes that are a slide's furniture: its number, footer and date placeholders. */
const FURNITURE_PLACEHOLDER = /<p:ph\b[^>]*type="(?:sldNum|ftr|dt|hdr)"/;

type TSlide = { title: string | null; lines: string[] };

/** One slide's title (its title shape, or a short first line) and its text lines. */
const slideText = (xml: string): TSlide => {
  let title: string | null = null;
  const lines: string[] = [];
  for (const shape of xml.matchAll(/<p:sp\b[\s\S]*?<\/p:sp>/g)) {
    const shapeXml = shape[0];
    if (FURNITURE_PLACEHOLDER.test(shapeXml)) continue;
    const paragraphs = [...shapeXml.matchAll(/<a:p\b[\s\S]*?<\/a:p>/g)]
      // A slide number typed as a field is furniture too.
      .filter((paragraph) => !/<a:fld\b[^>]*type="slidenum"/.test(paragraph[0]))
      .map((paragraph) => textRuns(paragraph[0]))
      .filter(Boolean);
    if (title === null && /<p:ph\b[^>]*type="(?:title|ctrTitle)"/.test(shapeXml)) {
      title = paragraphs.join(' ') || null;
    } else lines.push(...paragraphs);
  }
  if (title === null && lines.length > 1 && (lines[0]?.length ?? 0) <= 100) {
    title = lines.shift() ?? null;
  }
  return { title, lines };
};

/** A slide as blocks: its title as a heading, the rest as one paragraph of sentences. */
const slideBlocks = ({ title, lines }: TSlide): TBlock[] => {
  const sentences = lines.map((line) => (/[.!?…:;]["'”’)]*$/u.test(line) ? line : `${line}.`));
  const blocks: TBlock[] = [];
  if (title) blocks.push({ kind: 'heading', text: title });
  if (sentences.length > 0) blocks.push({ kind: 'paragraph', text: sentences.join(' ') });
  return blocks;
};

/**
 * A deck as blocks, slide by slide, without what repeats on every slide (a footer typed on each)
 * and without an agenda slide (the deck's table of contents).
 */
const deckBlocks = (slides: TSlide[]): TBlock[] => {
  const lines = dropPageFurniture(slides.map((slide) => slide.lines));
  return slides.flatMap((slide, index) =>
    slide.title && isContentsTitle(slide.title)
      ? []
      : slideBlocks({ title: slide.title, lines: lines[index] ?? [] }),
  );
};

const readPptx = (filePath: string): Promise<TBlock[]> =>
  withZip(filePath, async (zip) => {
    const slides = await xmlParts(zip, (name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    if (slides.size === 0) throw new UnreadableFileError();
    return deckBlocks(
      [...slides.keys()]
        .sort((a, b) => slideNumber(a) - slideNumber(b))
        .map((name) => slideText(slides.get(name) ?? '')),
    );
  });

const PDF_READER = fileURLToPath(new URL('./pdf-reader.js', import.meta.url));

/** A process's resident memory, from /proc (Linux); null elsewhere, where only time is bounded. */
const residentBytes = (pid: number): number | null => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
};

/** /proc reports CPU time in USER_HZ ticks, 100 a second on every Linux. */
const MS_PER_TICK = 10;

/** A process's CPU time (user and system) in ms, from /proc (Linux); null elsewhere. */
export const cpuTimeMs = (pid: number): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): state, …, utime, stime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * MS_PER_TICK : null;
  } catch {
    return null;
  }
};

/**
 * A PDF's pages, parsed in a short-lived child process that is killed as soon as it passes the
 * time or memory bound (a 1 MB PDF can hold a content stream inflating to a gigabyte). pdf.js
 * alone takes 150 MB once loaded: in its own process it neither stays in the server's memory
 * nor can take the server down.
 */
const readPdf = async (filePath: string): Promise<TBlock[]> => {
  const { size } = await stat(filePath);
  if (size > DOCUMENT_LIMITS.pdfBytes) throw new DocumentTooLargeError(`${size} bytes`);
  const child = fork(PDF_READER, [filePath], {
    execArgv: ['--max-old-space-size=192'],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'advanced',
  });
  const pages = await new Promise<TPdfLine[][]>((resolve, reject) => {
    let settled = false;
    const finish = (result: TPdfLine[][] | Error) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const watch = setInterval(() => {
      const bytes = child.pid ? residentBytes(child.pid) : null;
      if (bytes !== null && bytes > DOCUMENT_LIMITS.pdfMemoryMb * 1024 * 1024) {
        finish(new DocumentTooLargeError('memory'));
      }
      const cpuMs = child.pid ? cpuTimeMs(child.pid) : null;
      if (cpuMs !== null && cpuMs > DOCUMENT_LIMITS.pdfMs)
        finish(new DocumentTooLargeError('time'));
    }, 25);
    const cpuReadable = cpuTimeMs(process.pid) !== null;
    const timer = setTimeout(
      () => finish(new DocumentTooLargeError('time')),
      cpuReadable ? DOCUMENT_LIMITS.pdfWallMs : DOCUMENT_LIMITS.pdfMs,
    );
    child.on('message', (message: { pages?: TPdfLine[][]; error?: string }) =>
      finish(message.pages ?? new UnreadableFileError(message.error)),
    );
    child.on('error', (error) => finish(new UnreadableFileError(error)));
    child.on('exit', () => finish(new UnreadableFileError('the PDF reader stopped')));
  });
  return pdfBlocks(pages);
};

/**
 * A PDF's pages as blocks: without their running headers, footers and page numbers, without a
 * table of contents, and read as one text, so a paragraph running over a page break stays one
 * (a lesson never starts mid-sentence where a page began).
 */
export const pdfBlocks = (pages: readonly (readonly TPdfLine[])[]): TBlock[] => {
  const withoutContents = pages.map((page) => {
    const lines = page.filter((line) => line.text.trim());
    const contents = contentsLines(lines.map((line) => line.text));
    return lines.filter((_, index) => !contents.has(index));
  });
  const bodySize = pdfBodySize(withoutContents.flat());
  const body = dropPageFurniture(withoutContents, {
    textOf: (line) => line.text,
    isProminent: (line) => bodySize > 0 && line.size >= bodySize * PDF_HEADING_SCALE,
  });
  return pdfLinesToBlocks(body);
};

/** The first `max` bytes of a file. */
const readStart = async (filePath: string, max: number): Promise<Buffer> => {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buffer, 0, max, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

/** A prefix of text cut where a character ends, so it still decodes as what it is. */
const wholeCharacters = (bytes: Buffer): Buffer => {
  if (bytes[0] === 0xff || bytes[0] === 0xfe) return bytes.subarray(0, bytes.length & ~1);
  let end = bytes.length;
  // Back off over an UTF-8 sequence the cut left incomplete.
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = bytes[end - back]!;
    if (byte < 0x80) break;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      if (back < length) end -= back;
      break;
    }
  }
  return bytes.subarray(0, end);
};

/** The first blocks, up to DOCUMENT_LIMITS.textChars characters of text. */
const firstChars = (blocks: TBlock[]): TBlock[] => {
  const kept: TBlock[] = [];
  let chars = 0;
  for (const block of blocks) {
    if (chars >= DOCUMENT_LIMITS.textChars) break;
    const room = DOCUMENT_LIMITS.textChars - chars;
    kept.push(block.text.length > room ? { ...block, text: block.text.slice(0, room) } : block);
    chars += block.text.length;
  }
  return kept;
};

/**
 * Plain text without its pages' furniture: a form feed (as pdftotext writes) separates pages;
 * the lines of a table of contents go too.
 */
const plainTextBody = (text: string): string => {
  const pages = text.split('\f').map((page) => page.replace(/\r\n?/g, '\n').split('\n'));
  const body = pages.length > 1 ? dropPageFurniture(pages) : pages;
  // Blank lines are kept: they separate paragraphs.
  return body
    .map((page) => {
      const kept = new Set(dropContentsLines(page.filter((line) => line.trim())));
      return page.filter((line) => !line.trim() || kept.has(line)).join('\n');
    })
    .join('\n\n');
};

/**
 * The text of a document as heading and paragraph blocks, without what surrounds the text itself
 * (clean.ts); UnreadableFileError if it is not one.
 */
export const extractDocument = async (filePath: string, type: TDocumentType): Promise<TBlock[]> =>
  firstChars(cleanBlocks(await readDocument(filePath, type)));

const readDocument = async (filePath: string, type: TDocumentType): Promise<TBlock[]> => {
  if (type === 'txt') {
    return textToBlocks(
      plainTextBody(
        decodeText(wholeCharacters(await readStart(filePath, DOCUMENT_LIMITS.textBytes))),
      ),
    );
  }
  // The bytes must match the name: a renamed file is refused before a library parses it.
  if (!contentMatches(type, await headOf(filePath))) throw new UnreadableFileError();
  try {
    if (type === 'docx') return await readDocx(filePath);
    if (type === 'pptx') return await readPptx(filePath);
    return await readPdf(filePath);
  } catch (error) {
    if (error instanceof UnreadableFileError || error instanceof DocumentTooLargeError) throw error;
    throw new UnreadableFileError(error);
  }
};
