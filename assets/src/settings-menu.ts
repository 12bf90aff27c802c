// The console's Settings menu: how results travel (Arrow IPC, the default and fastest, or the
// query_exp JSON, kept for comparison), remembered in the browser.
import { el } from './dom.js';

const FORMAT_KEY = 'svc.format';

export type ResultFormat = 'arrow' | 'json';

export interface SettingsMenu {
  readonly root: HTMLElement;
  format(): ResultFormat;
}

export function createSettings(): SettingsMenu {
  const format = el('select', { id: 'result-format', title: 'How answers come from the server' },
    el('option', { value: 'arrow' }, 'Arrow IPC (default)'), el('option', { value: 'json' }, 'JSON (query_exp)'));
  format.value = localStorage.getItem(FORMAT_KEY) === 'json' ? 'json' : 'arrow';
  format.addEventListener('change', () => localStorage.setItem(FORMAT_KEY, format.value));
  const root = el('details', { className: 'menu', id: 'settings' }, el('summary', { title: 'Settings' }, 'Settings'),
    el('div', { className: 'menu-items' }, el('label', {}, 'Result format ', format)));
  return { root, format: () => (format.value === 'json' ? 'json' : 'arrow') };
}
