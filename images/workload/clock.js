// performance.timeOrigin + performance.now() is an absolute time (ms since the epoch, sub-ms resolution)
// that agrees across threads and processes, unlike performance.now() alone whose zero is per thread.
// Task times taken in worker threads and cluster children therefore line up with the primary's t0.

export function readClockMs() {
  return performance.timeOrigin + performance.now();
}
