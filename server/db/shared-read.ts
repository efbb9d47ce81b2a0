/**
 * A read that callers arriving while it is in flight share: they wait for the next one, so every caller's result
 * was read after it asked, and a busy process makes one small query for many requests (decisions 0072, 0077).
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let waiting: { resolve(value: T): void; reject(error: unknown): void }[] = [];
  let running = false;
  const pump = async () => {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        const value = await read();
        for (const waiter of batch) waiter.resolve(value);
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    running = false;
  };
  return () =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ resolve, reject });
      if (!running) void pump();
    });
}
