// Loaded into Flujo's server by `npm run bench:api` only (node --import): measures the server's event-loop delay
// and CPU time from inside it, without touching server code. The bench asks over the IPC channel; each answer
// covers the time since the previous question.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * What the probe answers since the last answer: how late the loop ran a timer (ms beyond the sampling interval,
 * so an idle loop reads about 0), and the process's CPU time in ms (all its threads).
 */
export interface ProbeReading {
  loopDelay: { p50: number; p99: number; max: number; mean: number };
  cpuMs: number;
  wallMs: number;
}

// 10 ms is Node's default sampling resolution; a finer one would cost the server measurable CPU itself.
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
let cpuSince = process.cpuUsage();
let wallSince = performance.now();

const NS_PER_MS = 1e6;
// NOTE: the histogram records the whole time between two samples, the interval included (Node's ELDHistogram).
const lateBy = (nanoseconds: number) => Math.max(0, nanoseconds / NS_PER_MS - RESOLUTION_MS);

// --cpu-prof: V8's profiler over the inspector protocol, on for exactly one run of the bench.
const profiler = new Session();
process.on('message', (message: unknown) => {
  if (message === 'profile:start') {
    profiler.connect();
    profiler.post('Profiler.enable', () =>
      profiler.post('Profiler.start', () => process.send?.('profile:started')),
    );
    return;
  }
  if (typeof message === 'string' && message.startsWith('profile:stop ')) {
    profiler.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(message.slice('profile:stop '.length), JSON.stringify(result.profile));
      profiler.disconnect();
      process.send?.(error ? `profile:failed ${error.message}` : 'profile:written');
    });
    return;
  }
  if (message !== 'probe:read') return;
  const cpu = process.cpuUsage(cpuSince);
  const reading: ProbeReading = {
    loopDelay: {
      p50: lateBy(histogram.percentile(50)),
      p99: lateBy(histogram.percentile(99)),
      max: lateBy(histogram.max),
      mean: lateBy(histogram.mean),
    },
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - wallSince,
  };
  histogram.reset();
  cpuSince = process.cpuUsage();
  wallSince = performance.now();
  process.send?.(reading);
});
// A bench that died without cleaning up (SIGKILL) must not leave its server running: stop as SIGTERM would.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
// After the listeners (adding one refs the channel again): the channel must not keep alive a server asked to stop.
process.channel?.unref();
