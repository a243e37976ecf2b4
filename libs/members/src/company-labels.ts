/**
 * The labels of the worker-input fields a company names in editcompany (issue #28 item 4): the
 * spec's read-only `extra_number_<x>_key` / `extra_text_<x>_key` of every job answer (x 1–4), set
 * once for the company's form (docs/decisions.md "Jobs", "Worker-input labels").
 */
export const EXTRA_LABEL_KEYS = [
  'extra_number_1_key',
  'extra_number_2_key',
  'extra_number_3_key',
  'extra_number_4_key',
  'extra_text_1_key',
  'extra_text_2_key',
  'extra_text_3_key',
  'extra_text_4_key',
] as const;

/** `extra_number_1_key` … `extra_text_4_key`. */
export type ExtraLabelKey = (typeof EXTRA_LABEL_KEYS)[number];

/** The company's labels, one per field; a field without a label is absent (answered as `""`). */
export type ExtraLabels = Partial<Record<ExtraLabelKey, string>>;

/** The longest label, in characters (code points). */
export const MAX_EXTRA_LABEL = 100;

/** The label rules' messages (errors and the OpenAPI description alike). */
export const LABEL_LENGTH_RULE = `must be at most ${MAX_EXTRA_LABEL} characters: the label the jobs answer under this read-only key ("" clears it)`;
export const LABEL_CONTROL_RULE = 'must not contain control characters (tabs, line breaks…)';

/** A control character (Unicode category Cc: tabs, line breaks, escapes…), as the phone rule refuses them. */
const CONTROL = /\p{Cc}/u;

/** The rule a label breaks, or null: a string of at most 100 characters without control characters; `""` clears it. */
export function extraLabelProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if ([...value].length > MAX_EXTRA_LABEL) return LABEL_LENGTH_RULE;
  if (CONTROL.test(value)) return LABEL_CONTROL_RULE;
  return null;
}

/** The eight label keys of a company answer, `""` where the company has none. */
export function extraLabelsView(labels: ExtraLabels): Record<ExtraLabelKey, string> {
  const out = {} as Record<ExtraLabelKey, string>;
  for (const key of EXTRA_LABEL_KEYS) out[key] = labels[key] ?? '';
  return out;
}

/** `labels` with the sent ones applied: a label replaces the field's, `""` removes it. */
export function applyExtraLabels(labels: ExtraLabels, sent: Partial<Record<ExtraLabelKey, string | undefined>>): ExtraLabels {
  const next: ExtraLabels = { ...labels };
  for (const key of EXTRA_LABEL_KEYS) {
    const value = sent[key];
    if (value === undefined) continue;
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}
