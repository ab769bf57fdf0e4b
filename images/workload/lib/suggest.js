// "Did you mean": the allowed name closest to a typo, or none when nothing is close enough to help.

/** Edit distance counting a swap of two neighbours as one edit (repetitoins → repetitions is 1). */
function measureDistance(a, b) {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0][j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/** The candidate `word` was probably meant to be, or undefined. */
export function suggestName(word, candidates) {
  const typed = String(word).toLowerCase();
  let best;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const name = candidate.toLowerCase();
    // A truncated name (uv_threadpool) is far in edits but obviously meant; 4 letters keep `c` from matching cpus.
    // The other way round is not: node_options is an env axis written in lower case, not `node`.
    const truncated = typed.length >= 4 && name.startsWith(typed);
    const distance = truncated ? 0.5 : measureDistance(typed, name);
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && distance < bestScore) {
      best = candidate;
      bestScore = distance;
    }
  }
  return best;
}
