/** Resolves true when `promise` settles (either way) within `ms`, false otherwise; never throws. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once a client (ioredis `Redis` or `Cluster`) reports `status` (polled every 10 ms). @throws after `ms` */
export async function statusReached(client: { status: string }, status: string, ms = 5_000): Promise<void> {
  const started = Date.now();
  while (client.status !== status) {
    if (Date.now() - started > ms) throw new Error(`status ${client.status}, not ${status}, after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
