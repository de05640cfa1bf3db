// Child process of the PDF reader (extract.ts): parses one PDF with pdf-parse (pdf.js) and sends
// the lines of its pages, each with its font size and its distance from the line above, so the
// parent can tell a heading (larger type) and a paragraph break (a wider gap) from running text.
// Plain JavaScript, so it starts without the TypeScript loader; pdf.js and whatever a hostile
// PDF makes it allocate live and die with this process, which the server kills when it takes
// too long or too much memory.
import { readFile } from 'node:fs/promises';

import { PDFParse } from 'pdf-parse';

/** The first 100 pages: far more text than a course of 30 lessons is made from. */
const MAX_PAGES = 100;

/**
 * One page's text items as lines `{ text, size, gap }`: a new line where pdf.js marks an end of
 * line or the baseline moves by more than half the type's height.
 */
const pageLines = (items) => {
  const lines = [];
  let current = null;
  let lastY;
  let lastTextY;
  let endOfLine = false;
  for (const item of items) {
    if (!('str' in item)) continue;
    const y = item.transform[5];
    const size = Math.round(Math.max(Math.abs(item.transform[3]), item.height || 0) * 10) / 10;
    const moved = lastY !== undefined && Math.abs(lastY - y) > Math.max(2, size / 2);
    if (!current || endOfLine || moved) {
      if (current?.text.trim()) lines.push(current);
      current = { text: '', size: 0, gap: lastTextY === undefined ? 0 : Math.abs(lastTextY - y) };
    }
    current.text += item.str;
    if (item.str.trim()) {
      current.size = Math.max(current.size, size);
      lastTextY = y;
    }
    lastY = y;
    endOfLine = item.hasEOL;
  }
  if (current?.text.trim()) lines.push(current);
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, ' ').trim() }));
};

const parser = new PDFParse({ data: new Uint8Array(await readFile(process.argv[2])) });
try {
  const doc = await parser.load();
  const pages = [];
  for (let number = 1; number <= Math.min(doc.numPages, MAX_PAGES); number += 1) {
    const page = await doc.getPage(number);
    pages.push(pageLines((await page.getTextContent()).items));
    page.cleanup();
  }
  process.send({ pages });
} catch (error) {
  process.send({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await parser.destroy();
}
