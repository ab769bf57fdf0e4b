// A round's number: every run of a round after the planned ones takes the experiment's next round as its repetition,
// so runs made side by side in time share one label — what the comparisons pair by (rounds as blocks).

/** One past the highest repetition of any run so far (warm-ups aside). */
export function nextRound(rows) {
  return Math.max(0, ...rows.filter((row) => row.warmup !== true).map((row) => Number(row.repetition))) + 1;
}
