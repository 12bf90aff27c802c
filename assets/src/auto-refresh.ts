// Auto-refresh of the console: every 5 s to 1 min the query runs again (a range like "last hour"
// moves with it), but never while the person is editing the query (its text differs from the
// last run's), while a run is still going, or while the page is hidden; it says when it waits.
import { el } from './dom.js';

export const REFRESH_CHOICES: readonly { readonly seconds: number; readonly label: string }[] = [
  { seconds: 0, label: 'Off' }, { seconds: 5, label: '5 s' }, { seconds: 10, label: '10 s' }, { seconds: 30, label: '30 s' }, { seconds: 60, label: '1 min' },
];

export interface AutoRefresh {
  readonly controls: readonly HTMLElement[];
  readonly seconds: number;
  /** Sets the interval (0 = off) without telling anyone (the URL, a saved view). */
  set(seconds: number): void;
}

export interface RefreshHooks {
  /** Whether a refresh must wait, and why (null: go). */
  waitReason(): string | null;
  refresh(): void;
  /** The interval was changed by the person. */
  onChange(seconds: number): void;
}

export function createAutoRefresh(hooks: RefreshHooks): AutoRefresh {
  const select = el('select', { id: 'refresh', title: 'Run the query again every …' },
    ...REFRESH_CHOICES.map((c) => el('option', { value: String(c.seconds) }, c.label)));
  const state = el('span', { className: 'muted refresh-state', 'aria-live': 'polite' });
  let seconds = 0;
  let timer = 0;
  const tick = (): void => {
    const reason = document.hidden ? 'the page is hidden' : hooks.waitReason();
    state.textContent = reason === null ? '' : `paused: ${reason}`;
    if (reason === null) hooks.refresh();
  };
  const start = (): void => {
    clearInterval(timer);
    timer = 0;
    state.textContent = '';
    select.value = String(seconds);
    if (seconds > 0) timer = window.setInterval(tick, seconds * 1000);
  };
  select.addEventListener('change', () => {
    seconds = Number(select.value);
    start();
    hooks.onChange(seconds);
  });
  return {
    controls: [el('label', {}, 'Refresh ', select), state],
    get seconds() { return seconds; },
    set(next) {
      seconds = REFRESH_CHOICES.some((c) => c.seconds === next) ? next : 0;
      start();
    },
  };
}
