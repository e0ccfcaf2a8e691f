// The retry console's front end: hash-routed pages over the JSON API under /api.
// Every string from the API (message bodies, exception messages, header values, ids) is attacker-controlled,
// so the DOM is only ever built with createElement and textContent, never with innerHTML.
'use strict';

/* ---------------------------------------------------------------- helpers */

const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;

const state = {
  session: null,     // GET /api/session, or null when it could not be loaded
  page: null,        // the page currently shown, see newPage()
  generation: 0,
};

const readOnly = () => !state.session || state.session.readOnly;

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function loadSession() {
  const { data } = await request('/api/session', {});
  state.session = data;
  return data;
}

async function request(path, { method = 'GET', body }) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    headers['X-Retry-Console-Token'] = state.session ? state.session.token : '';
  }
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('The console server could not be reached.', 0);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    const sentence = data && typeof data.error === 'string' && data.error
      ? data.error : `The server answered ${response.status} ${response.statusText}.`.replace(' .', '.');
    throw new ApiError(sentence, response.status);
  }
  if (data === null || typeof data !== 'object') {
    throw new ApiError(`The server's answer to ${path} was not JSON.`, response.status);
  }
  return { data, status: response.status };
}

// A 403 to a POST may only mean the token is stale (the server restarted); every POST carries a requestId,
// so sending it once more with a fresh token cannot do the action twice.
async function api(path, options = {}) {
  try {
    return await request(path, options);
  } catch (e) {
    if (e.status !== 403 || !options.method || options.method === 'GET') throw e;
    const before = state.session && state.session.token;
    const session = await loadSession().catch(() => null);
    showSession();
    if (!session || session.readOnly || session.token === before) throw e;
    return request(path, options);
  }
}

// crypto.randomUUID only exists in secure contexts; the console may be opened over plain http on a host name.
function newRequestId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * el('a', {href: '#/', class: 'x', testid: 'y', text: 'z'}, child, ...): children are nodes or strings
 * (strings become text nodes); null/undefined/false children are skipped.
 */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name === 'testid') node.dataset.testid = value;
    else if (name === 'on') for (const [event, fn] of Object.entries(value)) node.addEventListener(event, fn);
    else if (name === 'hidden' || name === 'disabled' || name === 'checked') node[name] = Boolean(value);
    else if (name === 'value') node.value = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// replaceChildren() would print null as "null"; this skips it like el() does.
function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

function button(text, attrs, onClick) {
  return el('button', { type: 'button', ...attrs, on: { click: onClick } }, text);
}

// Buttons that change something: not rendered at all when the console is read-only.
function actionButton(text, attrs, onClick) {
  return readOnly() ? null : button(text, attrs, onClick);
}

const DASH = '—';

function fmtNum(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return DASH;
  return Number(n).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

function fmtRate(r) {
  return r === null || r === undefined ? DASH : `${fmtNum(r)}/s`;
}

function fmtBytes(n) {
  if (n === null || n === undefined) return 'size unknown';
  if (n < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${fmtNum(n)} bytes (${v.toFixed(1)} ${units[u]})`;
}

function plural(n, one, many = `${one}s`) {
  return `${fmtNum(n)} ${n === 1 ? one : many}`;
}

function fmtLocal(date) {
  const p = (x) => String(x).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} `
    + `${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

function fmtAgo(date, now = Date.now()) {
  const s = Math.round((now - date.getTime()) / 1000);
  const a = Math.abs(s);
  let text;
  if (a < 45) return 'just now';
  if (a < 90 * 60) text = `${Math.max(1, Math.round(a / 60))} min`;
  else if (a < 48 * 3600) text = `${Math.round(a / 3600)} h`;
  else text = `${Math.round(a / 86400)} days`;
  return s >= 0 ? `${text} ago` : `in ${text}`;
}

// An ISO instant as local time with the relative time beside it; the instant itself in the tooltip.
function timeNode(iso) {
  if (!iso) return DASH;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return el('time', { datetime: iso, title: iso },
    el('span', { class: 'nowrap' }, fmtLocal(date)), ' ', el('span', { class: 'muted nowrap' }, `(${fmtAgo(date)})`));
}

function numCell(n, attrs = {}) {
  return el('td', { class: 'num', ...attrs }, fmtNum(n));
}

function shortKey(key) {
  return key.length > 12 ? `${key.slice(0, 12)}…` : key;
}

// notes: a short note to show beside some keys' values, as { key: { note, why } }.
function keyValueTable(object, testid, notes = {}) {
  const entries = Object.entries(object || {});
  if (entries.length === 0) return el('p', { class: 'muted', testid }, 'none');
  return el('table', { class: 'kv', testid },
    el('tbody', {}, entries.map(([k, v]) => el('tr', {},
      el('th', { scope: 'row' }, k),
      el('td', { class: 'mono wrap' }, v === null || v === undefined ? DASH
        : typeof v === 'string' ? v : JSON.stringify(v),
      notes[k] ? el('span', { class: 'note', testid: 'header-note', title: notes[k].why }, notes[k].note) : null)))));
}

function definitionList(pairs, testid) {
  return el('dl', { class: 'summary', testid },
    pairs.map(([term, value, id]) => [el('dt', {}, term), el('dd', { testid: id }, value)]));
}

const hash = {
  overview: () => '#/',
  service: (s) => `#/services/${enc(s)}`,
  group: (s, key) => `#/services/${enc(s)}/groups/${enc(key)}`,
  message: (s, id) => `#/services/${enc(s)}/messages/${enc(id)}`,
};

/* ---------------------------------------------------------------- chrome: header, errors, breadcrumbs */

function showSession() {
  const s = state.session;
  $('spec').textContent = s ? s.spec : '?';
  $('vhost').textContent = s ? s.vhost : '?';
  $('exchange').textContent = s ? s.exchange : '?';
  $('operator').textContent = s && s.operator ? s.operator : '';
  // Who acts, and who says so: the --as name, or the user the authenticating proxy names.
  $('operator').title = s && s.operatorFrom ? `replays and purges are recorded as ${s.operator}, from ${s.operatorFrom}` : '';
  $('read-only').hidden = !(s && s.readOnly);
  document.body.classList.toggle('read-only', readOnly());
}

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = false;
  $('error-banner').hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error-banner').hidden = true;
}

function crumbs(...parts) {
  // parts: [text, href] pairs; the last one is the current page and not a link
  fill($('crumbs'), ...parts.map(([text, href], i) => (i === parts.length - 1
    ? el('span', { 'aria-current': 'page' }, text)
    : el('a', { href }, text))));
  document.title = `${parts[parts.length - 1][0]} · retry console`;
}

function serviceCrumbs(service, ...more) {
  crumbs(['overview', hash.overview()], [service, hash.service(service)], ...more);
}

/* ---------------------------------------------------------------- routing */

const routes = [
  [/^\/$/, renderOverview],
  [/^\/services\/([^/]+)$/, renderParkingLot],
  [/^\/services\/([^/]+)\/groups\/([^/]+)$/, renderGroup],
  [/^\/services\/([^/]+)\/messages\/([^/]+)$/, renderMessage],
];

// Asynchronous work checks page.alive() before touching the DOM, so answers that arrive after the user
// moved on are dropped instead of drawing over the new page.
function newPage() {
  const generation = ++state.generation;
  const page = {
    alive: () => generation === state.generation,
    refresh: null,   // reloads the page's data; called by the Refresh buttons and when a job finishes
    service: null,
    later: (fn, ms) => setTimeout(() => { if (page.alive()) fn(); }, ms),
  };
  state.page = page;
  return page;
}

async function refreshPage(page) {
  if (!page.refresh || !page.alive()) return;
  try {
    await page.refresh();
    if (page.alive() && page.errorFromRefresh) clearError();
    page.errorFromRefresh = false;
  } catch (e) {
    if (!page.alive()) return;
    page.errorFromRefresh = true;
    showError(e.message);
    const placeholder = $('view').querySelector('[data-testid=loading]');
    if (placeholder) placeholder.textContent = 'This page could not be loaded.';
  }
}

function route() {
  const path = (location.hash.replace(/^#/, '') || '/').replace(/(.)\/+$/, '$1');
  clearError();
  if ($('job').dataset.state !== 'running') $('job').hidden = true;   // a finished job belongs to the page it ran on
  const page = newPage();
  for (const [pattern, render] of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    let params;
    try {
      params = match.slice(1).map(decodeURIComponent);
    } catch (e) {
      break;
    }
    render(page, params);
    refreshPage(page);
    return;
  }
  crumbs(['overview', hash.overview()], ['not found', '']);
  fill($('view'), el('h1', {}, 'Not found'),
    el('p', {}, 'There is no page at this address. ', el('a', { href: hash.overview() }, 'Back to the overview.')));
}

function loading() {
  return el('p', { class: 'muted', testid: 'loading' }, 'Loading…');
}

/* ---------------------------------------------------------------- running jobs list */

// The jobs other operators (or earlier visits) started; the job this browser started is shown in #job.
function runningJobs(page, service, { poll }) {
  const body = el('tbody');
  const node = el('section', { class: 'panel', testid: 'running-jobs', hidden: true },
    el('h2', {}, 'Running jobs'),
    el('table', { class: 'grid' },
      el('thead', {}, el('tr', {},
        el('th', {}, 'kind'), el('th', {}, 'service'), el('th', {}, 'by'), el('th', {}, 'progress'),
        el('th', { class: 'num' }, 'rate'), el('th', {}, 'started'))),
      body));
  async function reload() {
    const { data } = await api('/api/jobs');
    if (!page.alive()) return;
    const mine = $('job').hidden ? null : $('job').dataset.job;   // already shown in #job
    const running = (data.jobs || []).filter((j) => j.state === 'running' && j.id !== mine
      && (!service || j.service === service));
    node.hidden = running.length === 0;
    fill(body, ...running.map((j) => el('tr', { testid: 'running-job', 'data-job': j.id },
      el('td', {}, j.kind),
      el('td', {}, el('a', { href: hash.service(j.service) }, j.service)),
      el('td', { testid: 'running-job-operator' }, j.operator || ''),
      el('td', {}, jobProgressText(j)),
      el('td', { class: 'num' }, fmtRate(j.rate)),
      el('td', {}, timeNode(j.startedAt)))));
    if (poll && running.length > 0) page.later(() => reload().catch(() => {}), 2000);
  }
  return { node, reload };
}

/* ---------------------------------------------------------------- overview: #/ */

function renderOverview(page) {
  crumbs(['overview', hash.overview()]);
  const management = el('div', { class: 'notice warn', testid: 'management', hidden: true });
  const services = el('div', { class: 'scroll-x' }, loading());
  const driftState = el('p', { class: 'drift-state', testid: 'drift-state' }, DASH);
  const driftLines = el('pre', { class: 'diff', testid: 'drift-lines', hidden: true });
  const drift = el('section', { class: 'panel', id: 'drift', testid: 'drift' },
    el('h2', {}, 'Broker against the spec'), driftState, driftLines);
  const jobs = runningJobs(page, null, { poll: false });
  const picture = el('img', { id: 'topology', src: '/api/topology.svg', alt: 'topology' });
  const pictureMissing = el('p', { class: 'muted', hidden: true }, 'The topology picture could not be loaded.');
  picture.addEventListener('error', () => { picture.hidden = true; pictureMissing.hidden = false; });

  fill($('view'),
    el('h1', {}, 'Services'),
    management,
    services,
    el('div', { class: 'columns' }, drift, jobs.node),
    el('section', { class: 'panel' }, el('h2', {}, 'Topology'),
      el('div', { class: 'scroll-x topology' }, picture), pictureMissing));

  page.refresh = async () => {
    const { data } = await api('/api/overview');
    if (!page.alive()) return;
    const m = data.management || {};
    management.hidden = m.available !== false;
    management.textContent = `The management API is unavailable: ${m.error || 'no reason given'} `
      + 'Queue depths come from AMQP and message rates are not shown.';
    fill(services, servicesTable(data.services || []));
    showDrift(data.drift || { state: 'unknown' }, drift, driftState, driftLines);
    await jobs.reload();
  };
  // Re-arms only after each refresh finishes so that a slow server never has requests piling up.
  const loop = async () => {
    if (!document.hidden) await refreshPage(page);
    page.later(loop, 5000);
  };
  page.later(loop, 5000);
}

function showDrift(drift, panel, stateNode, linesNode) {
  panel.dataset.state = drift.state;
  const lines = drift.lines || [];
  if (drift.state === 'reading') {
    stateNode.textContent = 'reading the plan…';
  } else if (drift.state === 'in-sync') {
    stateNode.textContent = 'in sync';
  } else if (drift.state === 'drift') {
    stateNode.textContent = `drift: ${plural(drift.changes ?? lines.length, 'change')}`;
  } else {
    stateNode.textContent = `unknown: ${drift.error || 'no reason given'}`;
  }
  linesNode.hidden = drift.state !== 'drift' || lines.length === 0;
  fill(linesNode, ...lines.map((line) => el('span', {
    class: line.startsWith('+') ? 'add' : line.startsWith('-') ? 'remove' : line.startsWith('~') ? 'change' : '',
  }, line, '\n')));
}

function servicesTable(services) {
  if (services.length === 0) return el('p', { class: 'muted', testid: 'services' }, 'The spec declares no services.');
  return el('table', { class: 'grid', testid: 'services' },
    el('thead', {},
      el('tr', {},
        el('th', { rowspan: 2 }, 'service'), el('th', { rowspan: 2 }, 'routing keys'),
        el('th', { rowspan: 2 }, 'retries'), el('th', { colspan: 3, class: 'group' }, 'queue'),
        el('th', { rowspan: 2 }, 'retry tiers'), el('th', { rowspan: 2, class: 'num' }, 'parked'),
        el('th', { colspan: 3, class: 'group' }, 'messages per second')),
      el('tr', {},
        el('th', { class: 'num' }, 'ready'), el('th', { class: 'num' }, 'unacked'),
        el('th', { class: 'num' }, 'consumers'),
        el('th', { class: 'num' }, 'published'), el('th', { class: 'num' }, 'delivered'),
        el('th', { class: 'num' }, 'acked'))),
    el('tbody', {}, services.map(serviceRow)));
}

function serviceRow(s) {
  const depth = s.queueDepth || {};
  const rates = s.rates || {};
  const tiers = s.tiers || [];
  return el('tr', { testid: `service-${s.name}`, 'data-service': s.name },
    el('td', {}, el('a', { href: hash.service(s.name), class: 'strong' }, s.name),
      el('div', { class: 'muted small' }, `queue ${s.queue}`)),
    el('td', {}, (s.routingKeys || []).map((k) => el('div', {}, el('code', {}, k)))),
    el('td', { class: 'policy' }, el('div', {}, s.delays), el('div', { class: 'muted small' }, s.policy)),
    numCell(depth.ready), numCell(depth.unacked), numCell(depth.consumers),
    el('td', {}, tiers.length === 0 ? el('span', { class: 'muted' }, DASH)
      : el('table', { class: 'tiers' }, el('tbody', {}, tiers.map((t) => el('tr', { title: t.queue, 'data-queue': t.queue },
        el('td', {}, t.delay), numCell(t.messages)))))),
    el('td', { class: 'num' }, el('a', {
      href: hash.service(s.name), testid: `parked-${s.name}`, class: s.parked > 0 ? 'parked' : 'muted',
    }, fmtNum(s.parked))),
    el('td', { class: 'num' }, fmtRate(rates.published)),
    el('td', { class: 'num' }, fmtRate(rates.delivered)),
    el('td', { class: 'num' }, fmtRate(rates.acknowledged)));
}

/* ---------------------------------------------------------------- parking lot: #/services/{service} */

function exceptionText(exception) {
  return exception || DASH;
}

function messageText(group) {
  if (group.message) return group.message;
  return group.exception ? '(no message)' : '(no exception recorded)';
}

function renderParkingLot(page, [service]) {
  page.service = service;
  serviceCrumbs(service, ['parking lot', '']);
  document.title = `${service} parking lot · retry console`;
  let parked = null;
  let parkingLot = '';
  const count = el('span', { testid: 'parked-count', id: 'parked-count' }, DASH);
  const meta = el('p', { class: 'muted', id: 'groups-meta' });
  const incomplete = el('div', { class: 'notice', testid: 'incomplete', hidden: true });
  const refresh = button('Refresh', { id: 'refresh-groups' }, () => refreshPage(page));
  const purge = actionButton('Purge parking lot', { id: 'purge', class: 'danger' },
    () => openPurge(service, parkingLot, parked));
  const area = el('div', {}, loading());
  const jobs = runningJobs(page, service, { poll: true });

  fill($('view'),
    el('div', { class: 'page-head' },
      el('h1', {}, service, ' ', el('span', { class: 'light' }, 'parking lot'), ' ',
        el('span', { class: 'count' }, count, ' parked')),
      el('div', { class: 'buttons' }, refresh, purge)),
    meta, incomplete, jobs.node, area);

  page.refresh = async () => {
    refresh.disabled = true;
    try {
      const { data } = await api(`/api/services/${enc(service)}/groups`);
      if (!page.alive()) return;
      parked = data.parked;
      parkingLot = data.parkingLot;
      count.textContent = fmtNum(data.parked);
      meta.textContent = `${data.parkingLot} · ${plural(data.scanned, 'message')} grouped in ${fmtNum(data.tookMillis)} ms`;
      incomplete.hidden = data.complete !== false;
      incomplete.textContent = `Only the first ${fmtNum(data.scanned)} of ${fmtNum(data.parked)} parked messages were `
        + 'grouped; the counts below leave the rest out.';
      const groups = data.groups || [];
      fill(area, groups.length === 0
        ? el('p', { class: 'empty', testid: 'no-groups' }, 'The parking lot is empty.')
        : el('div', { class: 'scroll-x' }, groupsTable(service, groups)));
      await jobs.reload();
    } finally {
      refresh.disabled = false;
    }
  };
}

function groupsTable(service, groups) {
  return el('table', { class: 'grid', testid: 'groups' },
    el('thead', {}, el('tr', {},
      el('th', {}, 'exception'), el('th', {}, 'message'), el('th', {}, 'reason'),
      el('th', { class: 'num' }, 'count'), el('th', {}, 'first'), el('th', {}, 'last'),
      readOnly() ? null : el('th', {}, el('span', { class: 'sr-only' }, 'actions')))),
    el('tbody', {}, groups.map((g) => el('tr', { testid: 'group-row', 'data-key': g.key },
      el('td', { class: 'mono' }, exceptionText(g.exception)),
      el('td', { class: 'clip' }, el('a', { href: hash.group(service, g.key), testid: 'group-link', title: messageText(g) },
        messageText(g))),
      el('td', {}, g.reason || DASH),
      numCell(g.count, { testid: 'group-count' }),
      el('td', { class: 'time' }, timeNode(g.first)),
      el('td', { class: 'time' }, timeNode(g.last)),
      readOnly() ? null : el('td', {}, button('Replay group', { testid: 'replay-group', class: 'small' },
        () => openReplay(groupReplay(service, g))))))));
}

// "expected" is the count the page shows: the replay takes no more than that, so messages parked into the group since
// the page read it stay parked (and the progress says "3 of 10").
function groupReplay(service, group) {
  return {
    service,
    body: { group: group.key, expected: group.count },
    what: `the group of ${plural(group.count, 'message')} (${exceptionText(group.exception)}: ${messageText(group)})`,
  };
}

/* ---------------------------------------------------------------- group: #/services/{service}/groups/{key} */

function renderGroup(page, [service, key]) {
  page.service = service;
  serviceCrumbs(service, [`group ${shortKey(key)}`, '']);
  const selected = new Set();
  let group = null;
  const head = el('div', { class: 'page-head' }, el('h1', {}, 'Failure group'));
  const area = el('div', {}, loading());
  fill($('view'), head, area);

  const refresh = button('Refresh', { id: 'refresh-messages' }, () => refreshPage(page));
  const replaySelected = actionButton('Replay selected', { id: 'replay-selected', disabled: true }, () => openReplay({
    service, body: { ids: [...selected] }, what: selected.size === 1 ? `message ${[...selected][0]}` : plural(selected.size, 'message'),
  }));
  const replayGroup = actionButton('Replay group', { id: 'replay-group', disabled: true },
    () => openReplay(groupReplay(service, group)));
  const selection = el('span', { class: 'muted', id: 'selection-count' });
  head.append(el('div', { class: 'buttons' }, selection, refresh, replaySelected, replayGroup));

  function selectionChanged() {
    if (replaySelected) replaySelected.disabled = selected.size === 0;
    selection.textContent = selected.size ? `${fmtNum(selected.size)} selected` : '';
  }

  page.refresh = async () => {
    let data;
    try {
      ({ data } = await api(`/api/services/${enc(service)}/groups/${enc(key)}/messages?limit=200`));
    } catch (e) {
      if (e.status !== 404) throw e;
      if (!page.alive()) return;
      group = null;
      selected.clear();
      selectionChanged();
      for (const b of [replayGroup, replaySelected]) if (b) b.hidden = true;
      fill(area, el('p', { class: 'empty', testid: 'group-empty' }, 'This group is empty now. ',
        el('a', { href: hash.service(service), testid: 'back' }, `Back to the parking lot of ${service}`)));
      return;
    }
    if (!page.alive()) return;
    group = data.group;
    if (replayGroup) replayGroup.disabled = false;
    const messages = data.messages || [];
    // Keep the ticks on messages that are still there, so a refresh does not lose a half-made selection.
    const ids = new Set(messages.map((m) => m.id));
    for (const id of [...selected]) if (!ids.has(id)) selected.delete(id);
    selectionChanged();
    fill(area,
      definitionList([
        ['exception', exceptionText(group.exception), 'group-exception'],
        ['message', messageText(group), 'group-message'],
        ['reason', group.reason || DASH],
        ['count', fmtNum(group.count), 'group-count'],
        ['first', timeNode(group.first)],
        ['last', timeNode(group.last)],
        ['key', el('code', {}, group.key)],
      ], 'group-summary'),
      data.more ? el('div', { class: 'notice', testid: 'more' },
        `Showing the first ${fmtNum(messages.length)} messages of this group. Replay group replays all of them.`) : null,
      messages.length === 0 ? el('p', { class: 'empty' }, 'No messages in this group.')
        : el('div', { class: 'scroll-x' }, messagesTable(service, messages, selected, selectionChanged)));
  };
}

function messagesTable(service, messages, selected, onChange) {
  const boxes = [];
  const all = readOnly() ? null : el('input', { type: 'checkbox', id: 'select-all', 'aria-label': 'Select all' });
  const syncAll = () => {
    if (!all) return;
    all.checked = selected.size > 0 && selected.size === boxes.length;
    all.indeterminate = selected.size > 0 && selected.size < boxes.length;
  };
  if (all) {
    all.addEventListener('change', () => {
      for (const box of boxes) {
        box.checked = all.checked;
        if (all.checked) selected.add(box.value); else selected.delete(box.value);
      }
      onChange();
    });
  }
  const rows = messages.map((m) => {
    let box = null;
    if (!readOnly()) {
      box = el('input', { type: 'checkbox', testid: 'select-message', value: m.id, checked: selected.has(m.id),
        'aria-label': `Select ${m.id}` });
      box.addEventListener('change', () => {
        if (box.checked) selected.add(m.id); else selected.delete(m.id);
        syncAll();
        onChange();
      });
      boxes.push(box);
    }
    return el('tr', { testid: 'message-row', 'data-id': m.id },
      box ? el('td', { class: 'check' }, box) : null,
      el('td', { class: 'mono' }, el('a', { href: hash.message(service, m.id), testid: 'message-link' }, m.id)),
      el('td', { class: 'time' }, timeNode(m.parkedAt)),
      el('td', {}, el('code', {}, m.routingKey ?? DASH)),
      numCell(m.attempts), numCell(m.replays), numCell(m.copies),
      el('td', { class: 'clip', title: [m.exception, m.exceptionMessage].filter(Boolean).join(': ') },
        m.exceptionMessage || DASH));
  });
  syncAll();
  return el('table', { class: 'grid', testid: 'messages' },
    el('thead', {}, el('tr', {},
      all ? el('th', { class: 'check' }, all) : null,
      el('th', {}, 'id'), el('th', {}, 'parked at'), el('th', {}, 'routing key'),
      el('th', { class: 'num' }, 'attempts'), el('th', { class: 'num' }, 'replays'),
      el('th', { class: 'num' }, 'copies'), el('th', {}, 'exception message'))),
    el('tbody', {}, rows));
}

/* ---------------------------------------------------------------- message: #/services/{service}/messages/{id} */

function renderMessage(page, [service, id]) {
  page.service = service;
  serviceCrumbs(service, [`message ${id}`, '']);
  const area = el('div', {}, loading());
  const refresh = button('Refresh', { id: 'refresh-message' }, () => refreshPage(page));
  const replay = actionButton('Replay this message', { id: 'replay-message', class: 'primary' },
    () => openReplay({ service, body: { ids: [id] }, what: `message ${id}` }));
  fill($('view'),
    el('div', { class: 'page-head' },
      el('h1', {}, 'Message ', el('span', { class: 'mono', testid: 'message-id' }, id)),
      el('div', { class: 'buttons' }, refresh, replay)),
    area);

  page.refresh = async () => {
    let m;
    try {
      ({ data: m } = await api(`/api/services/${enc(service)}/messages/${enc(id)}`));
    } catch (e) {
      if (e.status !== 404) throw e;
      if (!page.alive()) return;
      if (replay) replay.hidden = true;
      fill(area, el('p', { class: 'empty', testid: 'message-gone' },
        `${e.message} `, el('a', { href: hash.service(service), testid: 'back' }, `Back to the parking lot of ${service}`)));
      return;
    }
    if (!page.alive()) return;
    if (replay) replay.hidden = false;
    const body = m.body || {};
    const format = { json: 'JSON', text: 'text', hex: 'hex dump' }[body.format] || String(body.format || 'body');
    fill(area,
      definitionList([
        ['parked at', timeNode(m.parkedAt)],
        ['reason', m.reason || DASH, 'message-reason'],
        ['detail', m.detail || DASH],
        ['routing key', el('code', {}, m.routingKey ?? DASH)],
        ['attempts', fmtNum(m.attempts), 'message-attempts'],
        ['replays', fmtNum(m.replays), 'message-replays'],
        ['copies', fmtNum(m.copies)],
        ['replayed', m.replayedBy ? [m.replayedBy, ' ', timeNode(m.replayedAt)] : 'never'],
        ['exception', el('span', { class: 'mono' }, m.exception || '(no exception recorded)'), 'message-exception'],
        ['exception message', m.exceptionMessage || DASH, 'message-exception-message'],
      ], 'message-summary'),
      el('section', { class: 'panel' }, el('h2', {}, 'Failures'),
        (m.failures || []).length === 0 ? el('p', { class: 'muted' }, 'none recorded')
          : el('ol', { class: 'failures mono', testid: 'failures' }, m.failures.map((f) => el('li', {}, f)))),
      el('div', { class: 'columns' },
        el('section', { class: 'panel' }, el('h2', {}, 'Headers'), keyValueTable(m.headers, 'headers', m.headerNotes || {})),
        el('section', { class: 'panel' }, el('h2', {}, 'Properties'), keyValueTable(m.properties, 'properties'))),
      el('section', { class: 'panel' },
        el('h2', {}, 'Body ', el('span', { class: 'light', testid: 'body-label', id: 'body-label' },
          `${format} · ${fmtBytes(body.bytes)}${body.truncated ? ' · truncated, only the start is shown' : ''}`)),
        el('pre', { id: 'message-body', class: `body body-${body.format}` }, body.text ?? '')));
  };
}

/* ---------------------------------------------------------------- replay and purge dialogs */

// One requestId per opened dialog: pressing Start again after a failure resends the same action,
// and the server answers a requestId it has seen with the job it already started.
const replay = { target: null, requestId: null, busy: false };
// The server tells a resent request from a new one by its requestId *and* its content (the rate included), so once a
// request may have reached it unanswered, the rate is frozen and Start sends exactly the same request again.

function openReplay(target) {
  replay.target = target;
  replay.requestId = newRequestId();
  $('replay-what').textContent = target.what;
  $('replay-service').textContent = target.service;
  $('replay-rate').value = '10';
  $('replay-rate').disabled = false;
  $('replay-error').hidden = true;
  $('replay-start').disabled = replay.busy;
  $('replay-dialog').showModal();
  $('replay-rate').select();
}

async function startReplay() {
  if (replay.busy || !replay.target) return;
  const rate = Number($('replay-rate').value);
  if ($('replay-rate').value.trim() === '' || !Number.isFinite(rate) || rate < 0.1) {
    dialogError('replay-error', 'Enter a rate of at least 0.1 messages per second.');
    return;
  }
  const target = replay.target;
  replay.busy = true;
  $('replay-start').disabled = true;
  $('replay-error').hidden = true;
  try {
    const { data } = await api(`/api/services/${enc(target.service)}/replay`,
      { method: 'POST', body: { requestId: replay.requestId, ...target.body, rate } });
    $('replay-dialog').close();
    watchJob(data, `Replay of ${target.what} in ${target.service}`);
  } catch (e) {
    if (e.status === 0) $('replay-rate').disabled = true;
    dialogError('replay-error', e.status === 0 ? `${e.message} Start sends the same request again.` : e.message);
    showError(e.message);
  } finally {
    replay.busy = false;
    $('replay-start').disabled = false;
  }
}

const purge = { service: null, requestId: null, busy: false };

function openPurge(service, parkingLot, parked) {
  purge.service = service;
  purge.requestId = newRequestId();
  $('purge-what').textContent = parked === null || parked === undefined
    ? 'every parked message' : `all ${plural(parked, 'parked message')}`;
  $('purge-queue').textContent = parkingLot || `the parking lot of ${service}`;
  $('purge-service').textContent = service;
  $('purge-confirm-input').value = '';
  $('purge-confirm').disabled = true;
  $('purge-error').hidden = true;
  $('purge-dialog').showModal();
  $('purge-confirm-input').focus();
}

function purgeConfirmed() {
  return $('purge-confirm-input').value === purge.service;
}

async function startPurge() {
  if (purge.busy || !purgeConfirmed()) return;
  const service = purge.service;
  purge.busy = true;
  $('purge-confirm').disabled = true;
  try {
    const { data } = await api(`/api/services/${enc(service)}/purge`,
      { method: 'POST', body: { requestId: purge.requestId, confirm: $('purge-confirm-input').value } });
    $('purge-dialog').close();
    watchJob(data, `Purge of the parking lot of ${service}`);
  } catch (e) {
    dialogError('purge-error', e.message);
    showError(e.message);
  } finally {
    purge.busy = false;
    $('purge-confirm').disabled = !purgeConfirmed();
  }
}

function dialogError(id, message) {
  $(id).textContent = message;
  $(id).hidden = false;
}

/* ---------------------------------------------------------------- the job this browser started */

const watched = { generation: 0 };

function jobProgressText(job) {
  if (job.kind === 'purge') return job.purged === null || job.purged === undefined ? 'purging…' : `purged ${fmtNum(job.purged)}`;
  const of = job.expected === null || job.expected === undefined ? '' : ` of ${fmtNum(job.expected)}`;
  return `replayed ${fmtNum(job.replayed ?? 0)}${of} at ${fmtRate(job.rate)}`;
}

function showJob(job) {
  const progress = $('job-progress');
  const done = job.kind === 'purge' ? job.purged : job.replayed;
  if (job.state === 'done') {
    progress.max = 1;
    progress.value = 1;
  } else if (job.kind === 'replay' && job.expected > 0) {
    progress.max = job.expected;
    progress.value = Math.min(job.replayed || 0, job.expected);
  } else if (job.state === 'running') {
    progress.removeAttribute('value');   // indeterminate
  } else {
    progress.value = 0;
  }
  let status;
  if (job.state === 'running') status = jobProgressText(job);
  else if (job.state === 'failed') status = `failed: ${job.error || 'no reason given'}`;
  else status = `done: ${job.kind === 'purge' ? 'purged' : 'replayed'} ${fmtNum(done ?? 0)}`;
  $('job-status').textContent = status;
  const detail = [];
  if (job.operator) detail.push(`by ${job.operator}`);
  if (job.kind === 'replay') {
    if (job.scanned) detail.push(`scanned ${fmtNum(job.scanned)}`);
    if (job.matched !== null && job.matched !== undefined) detail.push(`matched ${fmtNum(job.matched)}`);
    if (job.twinsDropped) detail.push(`${fmtNum(job.twinsDropped)} duplicate copies dropped`);
  }
  if (job.finishedAt && job.startedAt) {
    detail.push(`took ${fmtNum((new Date(job.finishedAt) - new Date(job.startedAt)) / 1000)} s`);
  }
  $('job-detail').textContent = detail.length ? `(${detail.join(', ')})` : '';
  $('job').dataset.state = job.state;
  $('job').dataset.job = job.id;
}

function watchJob(job, title) {
  const generation = ++watched.generation;
  const current = () => generation === watched.generation;
  $('job-title').textContent = title;
  $('job').hidden = false;
  showJob(job);
  const finished = (j) => {
    const page = state.page;
    if (page && (!page.service || page.service === j.service)) refreshPage(page);
  };
  const poll = async () => {
    if (!current()) return;
    let next = 500;
    try {
      const { data } = await api(`/api/jobs/${enc(job.id)}`);
      if (!current()) return;
      showJob(data);
      if (data.state !== 'running') {
        finished(data);
        return;
      }
    } catch (e) {
      if (!current()) return;
      showError(e.message);
      if (e.status === 404) return;
      next = 2000;   // the server may be restarting; keep asking, but more slowly
    }
    setTimeout(poll, next);
  };
  if (job.state === 'running') setTimeout(poll, 500);
  else finished(job);
}

/* ---------------------------------------------------------------- start */

function wire() {
  $('error-dismiss').addEventListener('click', clearError);
  $('job-close').addEventListener('click', () => {
    watched.generation++;   // stops the polling
    $('job').hidden = true;
  });
  $('replay-start').addEventListener('click', startReplay);
  $('replay-cancel').addEventListener('click', () => $('replay-dialog').close());
  $('replay-rate').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') startReplay();
  });
  $('purge-confirm-input').addEventListener('input', () => {
    $('purge-confirm').disabled = purge.busy || !purgeConfirmed();
  });
  $('purge-confirm-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') startPurge();
  });
  $('purge-confirm').addEventListener('click', startPurge);
  $('purge-cancel').addEventListener('click', () => $('purge-dialog').close());
  window.addEventListener('hashchange', route);
}

async function start() {
  wire();
  try {
    await loadSession();
  } catch (e) {
    // Pages still load read-only; every action needs the session's token anyway.
    showSession();
    route();
    showError(`The session could not be loaded: ${e.message}`);
    return;
  }
  showSession();
  route();
}

start();
