/**
 * Loaded into the service's process by bench/event-loop.ts (`--import`), to measure that process's event-loop
 * delay over the burst only, not over its start: the first SIGUSR2 starts the measure, the second writes it as
 * JSON to the file named by PORTARIA_BENCH_PROBE. POSIX signals: the bench runs on Linux and macOS.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.PORTARIA_BENCH_PROBE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let measuring = false;
  process.on('SIGUSR2', () => {
    if (!measuring) {
      delay.reset();
      delay.enable();
      measuring = true;
      return;
    }
    delay.disable();
    const percentiles = { p50: delay.percentile(50), p99: delay.percentile(99), max: delay.max };
    // Written whole, then renamed: the bench never reads half a file.
    writeFileSync(`${file}.part`, JSON.stringify(percentiles));
    renameSync(`${file}.part`, file);
  });
}
