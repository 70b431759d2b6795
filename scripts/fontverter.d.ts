// fontverter (installed with subset-font) ships no types: the one call scripts/font-metrics.ts makes.
declare module 'fontverter' {
  const fontverter: {
    convert(
      font: Buffer,
      toFormat: 'sfnt' | 'truetype' | 'woff' | 'woff2',
      fromFormat?: 'sfnt' | 'truetype' | 'woff' | 'woff2',
    ): Promise<Buffer>;
  };
  export default fontverter;
}
