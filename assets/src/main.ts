// The dashboard's entry: sign-in or the app (Console, Browse, Cluster tabs), switched by the
// session token; any 401 returns to sign-in. Everything is bundled by esbuild (no CDN).
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { api, setToken, setUnauthorizedHandler, token } from './api.js';
import { createBrowse } from './browse-view.js';
import { createCluster } from './cluster-view.js';
import { createConsole } from './console-view.js';
import { el } from './dom.js';
import type { Schema } from './query-language.js';
import { createSignIn } from './sign-in.js';

type Tab = 'console' | 'browse' | 'cluster';

const app = document.getElementById('app')!;
const schema: Schema = { tables: [], columns: new Map(), views: new Map() };
const consoleView = createConsole(schema);
const browse = createBrowse(schema, (query) => { select('console'); consoleView.open(query); }, () => consoleView.schemaChanged());
const cluster = createCluster();
const signIn = createSignIn(() => showApp());

const tabButtons = new Map<Tab, HTMLButtonElement>();
const panels: Record<Tab, HTMLElement> = { console: consoleView.root, browse: browse.root, cluster: cluster.root };
const signOut = el('button', { type: 'button', id: 'sign-out' }, 'Sign out');
const nav = el('nav', { role: 'tablist', 'aria-label': 'Views' });
for (const [tab, label] of [['console', 'Console'], ['browse', 'Browse'], ['cluster', 'Cluster']] as [Tab, string][]) {
  const b = el('button', { type: 'button', role: 'tab', id: `tab-${tab}`, title: `${label} (Alt+${tabButtons.size + 1})` }, label);
  b.addEventListener('click', () => select(tab));
  tabButtons.set(tab, b);
  nav.append(b);
}
const shell = el('div', { className: 'shell' },
  el('header', {}, el('span', { className: 'brand' }, 'svc'), nav, signOut),
  el('main', {}, consoleView.root, browse.root, cluster.root));

function select(tab: Tab): void {
  for (const [t, b] of tabButtons) {
    b.setAttribute('aria-selected', String(t === tab));
    panels[t].hidden = t !== tab;
  }
  if (tab === 'cluster') cluster.start(); else cluster.stop();
  if (tab === 'browse') void browse.refresh().catch(() => undefined);
  if (tab === 'console') consoleView.editor.view.focus();
  document.body.dataset['view'] = tab;
}

function showSignIn(message?: string): void {
  cluster.stop();
  app.replaceChildren(signIn.root);
  document.body.dataset['view'] = 'sign-in';
  signIn.show(message);
}

function showApp(): void {
  app.replaceChildren(shell);
  select('console');
  // A view in the URL (a reload, a shared link) is shown and run.
  consoleView.restoreFromUrl();
  // Table and column names for the table list, completion and help.
  void browse.refresh().catch(() => undefined);
}

// Alt+1/2/3 switch views from anywhere (the tabs are also in the Tab order).
document.addEventListener('keydown', (e) => {
  if (!e.altKey || e.ctrlKey || e.metaKey || document.body.dataset['view'] === 'sign-in') return;
  const tab = ({ '1': 'console', '2': 'browse', '3': 'cluster' } as Record<string, Tab>)[e.key];
  if (tab !== undefined) { e.preventDefault(); select(tab); }
});

// An open menu (Download, Settings) closes on a click elsewhere, as menus do.
document.addEventListener('click', (e) => {
  for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.menu[open]')) if (!menu.contains(e.target as Node)) menu.open = false;
});

setUnauthorizedHandler((message) => showSignIn(`Signed out: ${message}`));
signOut.addEventListener('click', () => { setToken(null); showSignIn(); });

if (token() === null) {
  showSignIn();
} else {
  // A kept token may have expired: one token route tells.
  api('/api/option/parallelism').then(() => showApp(), () => { if (token() !== null) showSignIn(); });
}
