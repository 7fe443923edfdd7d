// The operator console. The admin token is kept in this tab's sessionStorage and sent as `Authorization:
// Bearer`, never in a URL or a cookie, so no other site can make the browser use it. Everything shown is
// set as text, never parsed as HTML.

(() => {
  const API = '/admin/v1';
  const TOKEN_KEY = 'loanmatch.adminToken';
  const REFRESH_MS = 10000;
  const $ = (id) => document.getElementById(id);
  let timer;

  const token = () => sessionStorage.getItem(TOKEN_KEY);

  /** A call to the admin API: the `data` of the answer, or an Error with the API's message. */
  async function call(method, path, body) {
    const headers = { Authorization: `Bearer ${token()}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${API}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    const answer = await res.json().catch(() => ({}));
    if (res.status === 401) {
      signOut('The admin token was refused; sign in again.');
      throw new Error('unauthorized');
    }
    if (!res.ok || !answer.success) throw new Error(answer.message || `HTTP ${res.status}`);
    return answer.data;
  }

  /** Reports a failed call, unless the token was refused (signing out said so). */
  const failed = (what) => (err) => {
    if (err.message !== 'unauthorized') say(`${what}: ${err.message}`, true);
  };

  function say(text, isError) {
    const status = $('status');
    status.textContent = text;
    status.classList.toggle('error', Boolean(isError));
  }

  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

  /** Runs `handle` when `form` is submitted, in place of the browser's own submission. */
  const onSubmit = (form, handle) =>
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      handle();
    });

  // The funnel, and the funnel per partner and per lender, drawn as SVG bar charts.
  const SVG = 'http://www.w3.org/2000/svg';
  const FUNNEL_STAGES = [
    ['applications', 'Applications'],
    ['creditChecks', 'Credit checks'],
    ['matches', 'Matches'],
    ['referrals', 'Referrals'],
    ['duplicates', 'Duplicates'],
    ['funded', 'Funded'],
  ];
  const LENDER_STAGES = [
    ['referrals', 'Referrals'],
    ['duplicates', 'Duplicates'],
    ['started', 'Started'],
    ['approved', 'Approved'],
    ['funded', 'Funded'],
  ];
  const CONTRACTS = [
    ['A', 'Variant A'],
    ['B', 'Variant B'],
  ];
  const money = (amount) =>
    amount.toLocaleString('en-AU', { style: 'currency', currency: 'AUD', minimumFractionDigits: 2 });
  const day = (date) => date.toISOString().slice(0, 10);

  function svgElement(name, attributes, parent) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    parent.appendChild(element);
    return element;
  }

  /**
   * Horizontal bars: for each group a heading row (when it has a label) and one bar per stage, all on one
   * scale. Each bar carries `data-stage` and `data-value`, its group `data-group`.
   */
  function barChart(svg, groups, stages) {
    const ROW = 18;
    const LABEL = 150;
    const WIDTH = 640;
    const largest = Math.max(1, ...groups.flatMap((g) => stages.map(([stage]) => g.values[stage] || 0)));
    svg.replaceChildren();
    let y = 0;
    for (const group of groups) {
      const g = svgElement('g', { 'data-group': group.id }, svg);
      if (group.label) {
        svgElement('text', { x: 0, y: y + 13, class: 'group' }, g).textContent = group.label;
        y += ROW;
      }
      for (const [stage, label] of stages) {
        const value = group.values[stage] || 0;
        svgElement('text', { x: 8, y: y + 13 }, g).textContent = label;
        const width = Math.max(value > 0 ? 2 : 0, Math.round(((WIDTH - LABEL - 60) * value) / largest));
        const bar = svgElement('rect', { x: LABEL, y: y + 2, width, height: ROW - 4, class: `bar stage-${stage}` }, g);
        Object.assign(bar.dataset, { stage, value });
        svgElement('title', {}, bar).textContent = `${label}: ${value}`;
        svgElement('text', { x: LABEL + width + 6, y: y + 13, class: 'value' }, g).textContent = String(value);
        y += ROW;
      }
      y += 6;
    }
    if (groups.length === 0) {
      svgElement('text', { x: 0, y: 14 }, svg).textContent = 'Nothing in this window.';
      y = ROW;
    }
    svg.setAttribute('viewBox', `0 0 ${WIDTH} ${y}`);
    svg.setAttribute('height', String(y));
  }

  let lenderNames;
  let funnelLoads = 0;

  async function loadFunnel() {
    // A refresh and a click may overlap: only the latest one draws.
    const load = ++funnelLoads;
    const from = $('funnel-from').value;
    const to = $('funnel-to').value;
    const partnerId = $('funnel-partner').value;
    const range = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const ofPartner = partnerId ? `&partnerId=${encodeURIComponent(partnerId)}` : '';
    const [funnel, byPartner, byLender, lenders, usage] = await Promise.all([
      call('GET', `/reports/funnel?${range}${ofPartner}`),
      call('GET', `/reports/funnel/partners?${range}`),
      call('GET', `/reports/funnel/lenders?${range}${ofPartner}`),
      lenderNames ? Promise.resolve(null) : call('GET', '/lenders'),
      call('GET', `/reports/contract-usage?${range}`),
    ]);
    if (lenders) lenderNames = new Map(lenders.lenders.map((l) => [l.lenderId, l.name]));
    if (load !== funnelLoads) return;
    $('funnel-totals').textContent =
      `${from} to ${to}: ${funnel.funded} funded, ${money(funnel.fundedAmount)}; commission ${money(funnel.commission)}; ${funnel.duplicates} duplicate referrals (no commission).`;
    barChart($('funnel-chart'), [{ id: partnerId || 'all', values: funnel }], FUNNEL_STAGES);
    const chosen = (row) => !partnerId || row.partnerId === partnerId;
    const partners = byPartner.partners.filter(chosen).map((p) => ({ id: p.partnerId, label: p.name, values: p }));
    barChart($('partners-chart'), partners, FUNNEL_STAGES);
    barChart(
      $('lenders-chart'),
      byLender.lenders.map((l) => ({ id: l.lenderId, label: lenderNames.get(l.lenderId) || l.lenderId, values: l })),
      LENDER_STAGES,
    );
    // Requests on each contract per partner: who still calls the contract being retired.
    const callers = new Map();
    for (const row of usage.rows.filter(chosen)) {
      const group = callers.get(row.partnerId) || { id: row.partnerId, label: row.partnerName, values: {} };
      group.values[row.contract] = row.requests;
      callers.set(row.partnerId, group);
    }
    barChart($('contracts-chart'), [...callers.values()], CONTRACTS);
  }

  /** The tier's row, made from the page's template the first time it is shown. */
  function tierRow(tier) {
    const tbody = $('tiers').tBodies[0];
    const shown = tbody.querySelector(`tr[data-tier="${CSS.escape(tier)}"]`);
    if (shown) return shown;
    const row = $('tier-row').content.firstElementChild.cloneNode(true);
    row.dataset.tier = tier;
    row.cells[0].textContent = tier;
    const input = row.querySelector('input');
    input.setAttribute('aria-label', `Requests per hour, ${tier}`);
    input.addEventListener('input', () => (input.dataset.dirty = 'true'));
    onSubmit(row.querySelector('form'), () => saveLimit(tier, input));
    tbody.appendChild(row);
    return row;
  }

  function showTiers(tiers, usage) {
    const counts = new Map((usage ? usage.tiers : []).map((u) => [u.tier, u]));
    for (const tier of tiers) {
      const row = tierRow(tier.tier);
      const input = row.querySelector('input');
      // A limit being edited is left alone by the refresh.
      if (!input.dataset.dirty && document.activeElement !== input) input.value = String(tier.requestsPerHour);
      const used = counts.get(tier.tier);
      row.querySelector('.requests').textContent = usage ? String(used ? used.requests : 0) : 'n/a';
      row.querySelector('.refused').textContent = usage ? String(used ? used.refused : 0) : 'n/a';
      row.querySelector('.updated').textContent = when(tier.updatedAt);
    }
    $('usage-note').textContent = !usage
      ? 'Request counts are not available from this server.'
      : `Requests counted against the limit since ${when(usage.since)}${usage.shared ? ', by every Variant B process (Redis)' : ', by this process only (no Redis)'}.`;
  }

  function showPartners(partners) {
    const select = $('funnel-partner');
    const chosen = select.value;
    select.replaceChildren(new Option('All partners', ''), ...partners.map((p) => new Option(p.name, p.partnerId)));
    select.value = partners.some((p) => p.partnerId === chosen) ? chosen : '';
    const tbody = $('partners').tBodies[0];
    tbody.replaceChildren();
    for (const p of partners) {
      const row = $('partner-row').content.firstElementChild.cloneNode(true);
      const activeKeys = p.keys.filter((k) => !k.revokedAt).length;
      const texts = [p.name, p.partnerId, p.tier, p.environment, String(activeKeys), when(p.createdAt)];
      for (const [i, text] of texts.entries()) row.cells[i].textContent = text;
      tbody.appendChild(row);
    }
  }

  /** The application's leads shown to lenders (GET /admin/v1/applications/{id}/disclosures), oldest first. */
  async function loadApplication() {
    const id = $('application-id').value.trim();
    const tbody = $('disclosures').tBodies[0];
    tbody.replaceChildren(); // before the call: a failed lookup must not show the previous application's rows
    const { disclosures } = await call('GET', `/applications/${encodeURIComponent(id)}/disclosures`);
    for (const d of disclosures) {
      const row = $('disclosure-row').content.firstElementChild.cloneNode(true);
      const how = d.channel === 'pull' ? 'read by the lender' : 'delivered to its endpoint';
      for (const [i, text] of [when(d.at), d.lenderId, d.reference, how].entries()) row.cells[i].textContent = text;
      tbody.appendChild(row);
    }
    say(disclosures.length === 0 ? `No lead of application ${id} has been shown to a lender.` : '');
  }

  async function load() {
    const [tiers, usage, partners] = await Promise.all([
      call('GET', '/tiers'),
      call('GET', '/usage').catch((err) => (err.message === 'unauthorized' ? Promise.reject(err) : null)),
      call('GET', '/partners'),
    ]);
    showTiers(tiers.tiers, usage);
    showPartners(partners.partners);
    await loadFunnel();
  }

  const refresh = () => load().catch(failed('Could not load'));

  function saveLimit(tier, input) {
    call('PUT', `/tiers/${encodeURIComponent(tier)}`, { requestsPerHour: Number(input.value) })
      .then((saved) => {
        delete input.dataset.dirty;
        say(`${saved.tier}: ${saved.requestsPerHour} requests per hour, in force on every process within seconds.`);
        return load();
      })
      .catch(failed(tier));
  }

  function signIn(value) {
    sessionStorage.setItem(TOKEN_KEY, value);
    $('sign-in').hidden = true;
    $('console').hidden = false;
    $('sign-out').hidden = false;
    say('');
    refresh();
    clearInterval(timer);
    timer = setInterval(refresh, REFRESH_MS);
  }

  function signOut(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    clearInterval(timer);
    $('console').hidden = true;
    $('sign-out').hidden = true;
    $('sign-in').hidden = false;
    for (const element of $('console').querySelectorAll('svg, tbody')) element.replaceChildren();
    $('funnel-totals').textContent = '';
    say(message || '', Boolean(message));
  }

  document.addEventListener('DOMContentLoaded', () => {
    onSubmit($('sign-in'), () => {
      const field = $('token');
      const value = field.value.trim();
      field.value = '';
      signIn(value);
    });
    $('sign-out').addEventListener('click', () => signOut());
    $('refresh').addEventListener('click', refresh);
    // The last 30 days by default, today included.
    const today = new Date();
    $('funnel-to').value = day(today);
    $('funnel-from').value = day(new Date(today.getTime() - 29 * 24 * 60 * 60 * 1000));
    onSubmit($('funnel-form'), () => loadFunnel().catch(failed('Could not load the funnel')));
    onSubmit($('application-form'), () => loadApplication().catch(failed('Could not load the application')));
    if (token()) signIn(token());
    else signOut();
  });
})();
