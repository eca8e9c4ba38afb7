/** Messages between toolrun and its tool worker thread. */
export type WorkerJob = { kind: 'math'; args: { expression: string } } | { kind: 'internal'; module: string; handler: string; args: Record<string, unknown>; checkOnly?: boolean };

export type WorkerRequest = WorkerJob & { id: number };

export type WorkerResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string } };
