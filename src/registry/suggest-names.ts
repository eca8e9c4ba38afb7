/** The closest names to a mistyped one: edit distance, then shared prefixes and substrings. */
export function suggestNames(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  const target = wanted.toLowerCase();
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const lower = name.toLowerCase();
    const distance = editDistance(target, lower);
    const closeEnough = distance <= Math.max(2, Math.floor(target.length / 3));
    const related = target.length >= 3 && (lower.includes(target) || target.includes(lower.replace(/^[^:]*:/, '')));
    if (closeEnough || related) scored.push({ name, score: related && !closeEnough ? target.length : distance });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
