/**
 * The ordinary actions, called as any client calls them: `POST /api/<action>` with the key in the
 * `API-Key` header, so permissions, events and webhooks behave exactly as through the API.
 */

/** An action's refusal: its status code (-1, -2, -5, 1001, …), HTTP status and the server's sentence. */
export class ActionError extends Error {
  constructor(
    readonly action: string,
    readonly status: number,
    readonly http: number,
    message: string,
  ) {
    super(`${action}: ${message}`);
  }
}

export class Api {
  constructor(readonly key: string) {}

  /**
   * Calls `action` with `data`. @returns the answer (status 0)
   * @throws ActionError on a non-zero status (or an answer that is not JSON)
   */
  async action<T = Record<string, unknown>>(action: string, data: unknown): Promise<T> {
    const res = await fetch(`/api/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'API-Key': this.key },
      body: JSON.stringify({ data }),
    });
    let body: { status?: number; error?: string } & Record<string, unknown>;
    try {
      body = await res.json();
    } catch {
      throw new ActionError(action, -99, res.status, `answered ${res.status} without JSON`);
    }
    if (body.status !== 0) throw new ActionError(action, body.status ?? -99, res.status, body.error ?? `status ${body.status}`);
    return body as T;
  }

  /** `GET /v1/auth/whoami`: the key's member and company. @throws ActionError (http 401) for a refused key */
  async whoami(): Promise<{ member: { id: string; username: string; name: string; role: string }; company: { id: string; name: string } }> {
    const res = await fetch('/v1/auth/whoami', { headers: { 'API-Key': this.key, accept: 'application/json' } });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new ActionError('whoami', -2, res.status, body?.error?.message ?? `answered ${res.status}`);
    return body.data;
  }
}
