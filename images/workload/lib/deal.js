// Dealing is round-robin at both levels (tasks → cluster processes, a process's hand → its worker
// threads), so task i's place can be predicted from the spec alone, and the runner's docs can say so.

export function listTaskIndexes(count) {
  return Array.from({ length: count }, (_, index) => index);
}

/** Item i goes to hand i mod count. A hand may be empty when there are fewer items than hands. */
export function dealRoundRobin(items, count) {
  const hands = Array.from({ length: count }, () => []);
  items.forEach((item, index) => hands[index % count].push(item));
  return hands;
}
