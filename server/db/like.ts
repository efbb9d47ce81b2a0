/** `%`, `_` and `\` typed by a user are searched for literally (LIKE's default escape is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A LIKE pattern matching `text` anywhere, its LIKE characters taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
