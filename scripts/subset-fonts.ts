// Cuts the brand's two typefaces down to the characters the shop sets, and writes the
// @font-face rules for them. Run after changing FONT_FILES (the output is committed):
//   node --import tsx scripts/subset-fonts.ts
// The sources are the @fontsource packages' Cyrillic, Latin and Latin Extended files. Their
// Latin Extended file is only wanted for the rouble sign, and their Latin files carry accented
// letters the shop never prints: subsetting takes the five files a page needs from 90 KB to
// about 61 KB, small enough to preload them all, so no face is found late (see
// docs/decisions/004).
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import subsetFont from 'subset-font';
import { FONT_FILES, fontFaceCss } from '~/app/fonts/font-files';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

for (const file of FONT_FILES) {
  const source = await fs.readFile(path.join(root, 'node_modules', file.source));
  const subset = await subsetFont(source, String.fromCodePoint(...file.codePoints), { targetFormat: 'woff2' });
  await fs.writeFile(path.join(root, 'app/fonts', file.name), subset);
  console.log(
    `${file.name.padEnd(24)} ${(source.length / 1024).toFixed(1).padStart(5)} KB → ${(subset.length / 1024).toFixed(1).padStart(5)} KB`,
  );
}
await fs.writeFile(path.join(root, 'app/styles/fonts.css'), fontFaceCss());
console.log('wrote app/styles/fonts.css');
