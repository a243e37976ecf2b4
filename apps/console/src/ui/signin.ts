import { h } from '../dom';

/**
 * The sign-in form: one field, `input[name=apiKey]`, submitted by Enter. The key is checked by the
 * caller (`whoami`); `error` shows why the previous attempt failed.
 */
export function renderSignIn(root: HTMLElement, onKey: (key: string) => void, error?: string): void {
  const input = h('input', {
    id: 'apiKey',
    name: 'apiKey',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-describedby': 'apiKey-help',
  });
  const form = h(
    'form',
    { class: 'signin', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Fieldwork console'),
    h('label', { for: 'apiKey' }, 'API key'),
    input,
    h('p', { id: 'apiKey-help', class: 'help' }, 'The key is kept in this tab only (session storage) and sent with every call.'),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const key = input.value.trim();
    if (key) onKey(key);
  });
  root.replaceChildren(h('main', { class: 'signin-page' }, form));
  input.focus();
}
