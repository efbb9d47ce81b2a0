// The part of autocannon 9's programmatic API that scripts/bench-api.ts uses; the package ships no types.
// Field names and meanings: node_modules/autocannon/README.md ("API", "Results").
declare module 'autocannon' {
  /** hdr-histogram-percentiles-obj: latency in ms, requests and throughput per second-long sample. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    /** Runs first with these overrides; its figures come back apart, as `warmup`. */
    warmup?: { connections?: number; duration?: number };
    /** Requests per second across all connections; latencies are corrected for coordinated omission. */
    overallRate?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
  }

  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    warmup?: Result;
  }

  export interface Instance extends PromiseLike<Result> {
    /** Set once the run (after any warm-up) has started. */
    stop?: () => void;
  }

  export default function autocannon(options: Options): Instance;
}
