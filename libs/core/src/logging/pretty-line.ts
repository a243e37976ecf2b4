/**
 * The human-readable log line of `LOG_FORMAT=pretty` (docs/decisions.md, "Logs"): what pino-pretty
 * prints after `[time] LEVEL (process):`. Pure (no pino, no Nest), unit-tested.
 */

/** The colour functions pino-pretty hands a message format (colorette's, plain when colours are off). */
export interface LineColors {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  gray(text: string): string;
  cyan(text: string): string;
}

const PLAIN: LineColors = { red: String, yellow: String, green: String, gray: String, cyan: String };

/**
 * Keys the pretty line shows in its message (or never): pino-pretty leaves them out of the
 * object it prints after the message.
 */
export const PRETTY_IGNORED_KEYS = ['pid', 'hostname', 'context', 'req', 'res', 'responseTime', 'company', 'member', 'error'];

/** The fields of a request log line (`request completed` / `request errored`), as serialized. */
interface RequestLine {
  req: { id?: unknown; method?: unknown; url?: unknown };
  res: { statusCode?: unknown };
  responseTime?: unknown;
  company?: unknown;
  member?: unknown;
  error?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function isRequestLine(log: Record<string, unknown>): log is Record<string, unknown> & RequestLine {
  return isObject(log.req) && isObject(log.res) && typeof log.req.method === 'string';
}

/**
 * The message of a pretty line.
 * - a request: `POST /api/getaccounts 400 3 ms req=<request id> company=<id> member=<id> error: <text>`
 *   (company and member when the request authenticated; the error text of a 4xx/5xx answer);
 * - anything else: `[<Nest context>] <message>`.
 * @param log the pino log object (after serializers and redaction)
 */
export function prettyMessage(log: Record<string, unknown>, messageKey = 'msg', colors: LineColors = PLAIN): string {
  if (!isRequestLine(log)) {
    const context = typeof log.context === 'string' ? colors.cyan(`[${log.context}] `) : '';
    return `${context}${String(log[messageKey] ?? '')}`;
  }
  const status = Number(log.res.statusCode);
  const paint = status >= 500 ? colors.red : status >= 400 ? colors.yellow : colors.green;
  const parts = [`${String(log.req.method)} ${String(log.req.url)}`, paint(String(log.res.statusCode ?? '-'))];
  if (typeof log.responseTime === 'number') parts.push(`${log.responseTime} ms`);
  const ids = [`req=${String(log.req.id)}`];
  if (log.company !== undefined) ids.push(`company=${String(log.company)}`);
  if (log.member !== undefined) ids.push(`member=${String(log.member)}`);
  parts.push(colors.gray(ids.join(' ')));
  if (typeof log.error === 'string') parts.push(paint(`error: ${log.error}`));
  return parts.join(' ');
}
