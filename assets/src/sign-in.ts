// The sign-in screen: a key file ({"username","secret_key"}) typed, pasted or dropped; empty
// credentials while the server's security is off. The token is kept for the tab's session.
import { ApiError, login } from './api.js';
import { el } from './dom.js';

export function createSignIn(onSignedIn: () => void): { root: HTMLElement; show(message?: string): void } {
  const user = el('input', { id: 'username', autocomplete: 'username', placeholder: '(empty when security is off)' });
  const secret = el('input', { id: 'secret-key', type: 'password', autocomplete: 'current-password', placeholder: '(empty when security is off)' });
  const keyFile = el('textarea', { id: 'key-file', rows: 3, placeholder: 'or paste / drop the key file here: {"username": …, "secret_key": …}' });
  const picker = el('input', { type: 'file', id: 'key-file-input', accept: '.json,.txt,application/json', 'aria-label': 'Key file' });
  const message = el('p', { className: 'sign-in-message', role: 'alert' });
  const submit = el('button', { type: 'submit', className: 'primary', id: 'sign-in' }, 'Sign in');
  const form = el('form', { className: 'sign-in' },
    el('h1', {}, 'svc'), el('p', { className: 'muted' }, 'Sign in to the time-series database.'),
    el('label', {}, 'User name', user), el('label', {}, 'Secret key', secret),
    el('label', {}, 'Key file', keyFile), picker, message, submit);
  const root = el('main', { className: 'sign-in-page' }, form);

  const useKeyFile = (text: string): void => {
    keyFile.value = text;
    try {
      const k = JSON.parse(text) as { username?: unknown; secret_key?: unknown };
      if (typeof k.username === 'string') user.value = k.username;
      if (typeof k.secret_key === 'string') secret.value = k.secret_key;
      message.textContent = '';
    } catch {
      message.textContent = 'The key file is not valid JSON.';
    }
  };
  keyFile.addEventListener('input', () => { if (keyFile.value.trim() !== '') useKeyFile(keyFile.value); });
  picker.addEventListener('change', () => { const f = picker.files?.[0]; if (f !== undefined) void f.text().then(useKeyFile); });
  form.addEventListener('dragover', (e) => { e.preventDefault(); form.classList.add('dropping'); });
  form.addEventListener('dragleave', () => form.classList.remove('dropping'));
  form.addEventListener('drop', (e) => {
    e.preventDefault();
    form.classList.remove('dropping');
    const f = e.dataTransfer?.files[0];
    if (f !== undefined) void f.text().then(useKeyFile);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submit.disabled = true;
    message.textContent = '';
    login(user.value, secret.value).then(() => {
      secret.value = '';
      keyFile.value = '';
      onSignedIn();
    }, (err: unknown) => {
      message.textContent = err instanceof ApiError ? err.body.message : `Cannot reach the server: ${(err as Error).message}`;
    }).finally(() => { submit.disabled = false; });
  });
  return {
    root,
    show(text) {
      message.textContent = text ?? '';
      user.focus();
    },
  };
}
