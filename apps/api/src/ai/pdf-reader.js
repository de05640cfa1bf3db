// Child process of the PDF reader (extract.ts): parses one PDF with pdf-parse and sends the text
// of its pages. Plain JavaScript, so it starts without the TypeScript loader; pdf.js and whatever
// a hostile PDF makes it allocate live and die with this process, which the server kills when it
// takes too long or too much memory.
import { readFile } from 'node:fs/promises';

import { PDFParse } from 'pdf-parse';

const parser = new PDFParse({ data: new Uint8Array(await readFile(process.argv[2])) });
try {
  // The first 100 pages: far more text than a course of 30 lessons is made from.
  const result = await parser.getText({ first: 100 });
  process.send({ pages: result.pages.map((page) => page.text) });
} catch (error) {
  process.send({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await parser.destroy();
}
