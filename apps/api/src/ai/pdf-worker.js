// Worker thread entry of the PDF reader (extract.ts): parses one PDF with pdf-parse and posts the
// text of its pages. Plain JavaScript, so it starts without the TypeScript loader; pdf.js and its
// memory live and die with the thread, which the reader ends when it takes too long or too much.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';

import { PDFParse } from 'pdf-parse';

const parser = new PDFParse({ data: new Uint8Array(await readFile(workerData.path)) });
try {
  const result = await parser.getText();
  parentPort.postMessage({ pages: result.pages.map((page) => page.text) });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await parser.destroy();
}
