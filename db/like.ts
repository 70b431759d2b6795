// A LIKE / ILIKE pattern that matches `text` anywhere, with the pattern's own characters
// (\, %, _) in the text matched literally: what every staff search box sends.
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}
