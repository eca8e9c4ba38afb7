/**
 * The shape of a polluting stdout line, so a server that prints "Processed 1 items", "Processed 2
 * items"… is warned about once per run, not once per line (SPEC §9): digits and hex runs become '#',
 * and only the start of the line counts.
 */
export function pollutionPattern(text: string): string {
  return text
    .slice(0, 200)
    .replace(/\b[0-9a-f]{8,}\b/gi, '#')
    .replace(/\d+(\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
}
