// Draws the rdmatrace timeline from the JSON in #timeline-data: one lane per host and per QP,
// calls as bars, QP states as bands, completions/async events/messages as marks, out-of-band
// messages as arrows between the hosts, findings highlighted on their evidence. No network, no
// libraries: plain DOM and SVG.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  var SVGNS = 'http://www.w3.org/2000/svg';
  var GUTTER = 250, AXIS_H = 30, LANE_H = 58, RIGHT_PAD = 30;
  var view = { zoom: 1, linear: false };

  var hostLaneOf = {};          // host index -> host lane id
  var laneById = {};
  data.lanes.forEach(function (l) { laneById[l.id] = l; if (l.kind === 'host') { hostLaneOf[l.host] = l.id; } });
  var findingsOf = {};          // event id -> [finding number]
  data.findings.forEach(function (f, i) {
    f.evidence.forEach(function (ev) { (findingsOf[ev] = findingsOf[ev] || []).push(i + 1); });
  });

  function el(name, attrs, parent, text) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) { if (attrs[k] !== undefined && attrs[k] !== null) { e.setAttribute(k, attrs[k]); } }
    if (text !== undefined) { e.textContent = text; }
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function tooltip(e, text) { el('title', {}, e, text); }
  function html(name, cls, parent, text) {
    var e = document.createElement(name);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function duration(ns) {
    var a = Math.abs(ns);
    if (a < 1e3) { return ns + ' ns'; }
    if (a < 1e6) { return (ns / 1e3).toFixed(1) + ' µs'; }
    if (a < 1e9) { return (ns / 1e6).toFixed(2) + ' ms'; }
    return (ns / 1e9).toFixed(2) + ' s';
  }

  // The time axis. Linear, or (default) piecewise-linear between consecutive event times where
  // each interval d gets a width proportional to log(1 + d / tau): short intervals stay nearly
  // proportional, long idle waits shrink, order is kept. Tick labels always show true times.
  function buildAxis(width) {
    var ts = [0, data.span];
    data.calls.forEach(function (c) { ts.push(c.s, c.e); });
    data.points.forEach(function (p) { ts.push(p.t); });
    data.states.forEach(function (s) { ts.push(s.s, s.e); });
    ts.sort(function (a, b) { return a - b; });
    var uniq = [ts[0]];
    for (var i = 1; i < ts.length; i++) { if (ts[i] > uniq[uniq.length - 1]) { uniq.push(ts[i]); } }
    var gaps = [];
    for (i = 1; i < uniq.length; i++) { gaps.push(uniq[i] - uniq[i - 1]); }
    var sorted = gaps.slice().sort(function (a, b) { return a - b; });
    var tau = Math.min(1e6, Math.max(1e3, sorted.length ? sorted[Math.floor(sorted.length / 2)] : 1e3));
    var weight = function (d) { return view.linear ? d : Math.log(1 + d / tau); };
    var total = 0;
    gaps.forEach(function (d) { total += weight(d); });
    var scale = total > 0 ? width / total : 0;
    var xs = [0];
    for (i = 0; i < gaps.length; i++) { xs.push(xs[i] + weight(gaps[i]) * scale); }
    function x(t) {
      if (uniq.length < 2) { return 0; }
      var lo = 0, hi = uniq.length - 1;
      if (t <= uniq[0]) { return 0; }
      if (t >= uniq[hi]) { return xs[hi]; }
      while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (uniq[mid] <= t) { lo = mid; } else { hi = mid; } }
      var d = uniq[hi] - uniq[lo];
      return xs[lo] + (d > 0 ? (t - uniq[lo]) / d * (xs[hi] - xs[lo]) : 0);
    }
    return { x: x, width: width };
  }

  function drawAxis(svg, axis, height) {
    var g = el('g', { 'class': 'axis', id: 'axis' }, svg);
    var taken = [];
    function free(px) { return taken.every(function (q) { return Math.abs(q - px) >= 90; }); }
    for (var k = 11; k >= 2; k--) {
      [5, 2, 1].forEach(function (m) {
        var step = m * Math.pow(10, k);
        if (data.span / step > 4000) { return; }
        for (var t = 0; t <= data.span; t += step) {
          var px = axis.x(t);
          if (free(px)) {
            taken.push(px);
            el('line', { 'class': 'axis-tick', x1: GUTTER + px, x2: GUTTER + px, y1: AXIS_H - 8, y2: height }, g);
            el('text', { 'class': 'axis-label', x: GUTTER + px + 2, y: AXIS_H - 12 }, g, '+' + duration(t));
          }
        }
      });
    }
  }

  function render() {
    var container = document.getElementById('timeline');
    container.textContent = '';
    var width = Math.max(600, (container.clientWidth || 1200) - GUTTER - RIGHT_PAD) * view.zoom;
    var axis = buildAxis(width);
    var height = AXIS_H + data.lanes.length * LANE_H + 8;
    var svg = el('svg', { id: 'timeline-svg', width: GUTTER + width + RIGHT_PAD, height: height,
      viewBox: '0 0 ' + (GUTTER + width + RIGHT_PAD) + ' ' + height }, container);
    var defs = el('defs', {}, svg);
    var marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
      orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#7b5ea7' }, marker);

    var laneY = {};
    data.lanes.forEach(function (l, i) { laneY[l.id] = AXIS_H + i * LANE_H; });
    var lanesG = el('g', { id: 'lanes' }, svg);
    data.lanes.forEach(function (l) {
      var y = laneY[l.id];
      var g = el('g', { 'class': 'lane lane-' + l.kind, id: 'lane-' + l.id, 'data-host': l.host }, lanesG);
      el('rect', { 'class': 'lane-bg ' + l.kind, x: 0, y: y, width: GUTTER + width + RIGHT_PAD, height: LANE_H }, g);
      el('line', { 'class': 'lane-sep', x1: 0, x2: GUTTER + width + RIGHT_PAD, y1: y + LANE_H, y2: y + LANE_H }, g);
      var host = data.hosts[l.host];
      if (l.kind === 'host') {
        el('text', { 'class': 'lane-label host', x: 8, y: y + 20 }, g, l.label + (host.role ? ' (' + host.role + ')' : ''));
        el('text', { 'class': 'lane-sub', x: 8, y: y + 36 }, g, host.device || 'verbs calls, messages, steps');
      } else {
        el('text', { 'class': 'lane-label qp', x: 20, y: y + 24 }, g, l.label);
      }
    });
    drawAxis(svg, axis, height);

    var statesG = el('g', { id: 'states' }, svg);
    data.states.forEach(function (s) {
      var x1 = GUTTER + axis.x(s.s), x2 = GUTTER + axis.x(s.e), y = laneY[s.lane] + 45;
      var r = el('rect', { 'class': 'qpstate state-' + s.state, x: x1, y: y, width: Math.max(1, x2 - x1), height: 11,
        'data-state': s.state }, statesG);
      tooltip(r, s.state + ' for ' + duration(s.e - s.s));
      if (x2 - x1 > s.state.length * 6 + 6) {
        el('text', { 'class': 'state-label', x: x1 + 3, y: y + 9 }, statesG, s.state);
      }
    });

    var labels = [];  // {lane, x, text, cls, prio}: placed later, most important first
    var callsG = el('g', { id: 'calls' }, svg);
    data.calls.forEach(function (c) {
      var x1 = GUTTER + axis.x(c.s), x2 = GUTTER + axis.x(c.e), y = laneY[c.lane] + 6;
      var cls = 'call dimmable' + (c.ok ? '' : ' fail') + (c.verb === 'ibv_poll_cq' ? ' poll' : '')
        + (c.verb === 'condensed' ? ' condensed' : '');
      var w = Math.max(3, x2 - x1);
      var r = el('rect', { 'class': cls, id: c.ev, x: x2 - w, y: y, width: w, height: 14, 'data-verb': c.verb }, callsG);
      tooltip(r, c.detail + '\n' + duration(c.e - c.s));
      if (c.label) {
        var prio = !c.ok ? 0 : (c.verb === 'ibv_modify_qp' || c.verb === 'ibv_create_qp') ? 1 : 2;
        labels.push({ lane: c.lane, x: x2 - w, y: laneY[c.lane] + 31, text: c.label, cls: 'call-label' + (c.ok ? '' : ' fail'), prio: prio });
      }
    });

    var pointsG = el('g', { id: 'points' }, svg);
    var marksG = el('g', { id: 'marks' }, svg);
    data.points.forEach(function (p) {
      var x = GUTTER + axis.x(p.t), top = laneY[p.lane], shape;
      var bad = p.bad ? ' bad' : '';
      if (p.kind === 'completion') {
        var cy = top + 38;
        shape = el('path', { 'class': 'wc dimmable' + bad, id: p.ev, d: 'M ' + x + ' ' + (cy - 5) + ' l 5 5 l -5 5 l -5 -5 z' }, pointsG);
        if (p.bad) { labels.push({ lane: p.lane, x: x + 6, y: top + 31, text: p.label, cls: 'call-label fail', prio: 0 }); }
      } else if (p.kind === 'async') {
        var ay = top + 33;
        shape = el('path', { 'class': 'async dimmable' + bad, id: p.ev, d: 'M ' + x + ' ' + ay + ' l 6 10 l -12 0 z' }, pointsG);
        labels.push({ lane: p.lane, x: x + 7, y: top + 31, text: p.label, cls: 'call-label' + (p.bad ? ' fail' : ''), prio: 0 });
      } else if (p.kind === 'oob') {
        shape = el('circle', { 'class': 'oob dimmable' + bad, id: p.ev, cx: x, cy: top + 46, r: 4.5 }, pointsG);
      } else if (p.kind === 'mark') {
        var verdict = / PASS$/.test(p.label) ? 'pass' : (p.bad ? 'fail' : 'info');
        var hostLanes = data.lanes.filter(function (l) { return l.host === laneById[p.lane].host; });
        var yEnd = laneY[hostLanes[hostLanes.length - 1].id] + LANE_H;
        el('line', { 'class': 'mark-line ' + verdict, x1: x, x2: x, y1: top, y2: yEnd }, marksG);
        shape = el('path', { 'class': 'mark dimmable ' + verdict + bad, id: p.ev, d: 'M ' + x + ' ' + (top + 2) + ' l 8 4 l -8 4 z' }, pointsG);
        labels.push({ lane: p.lane, x: x + 9, y: top + 11, text: p.label, cls: 'mark-label ' + verdict, prio: verdict === 'info' ? 2 : 0, row: 'mark' });
      } else {
        shape = el('rect', { 'class': p.kind + ' dimmable', id: p.ev, x: x - 1, y: top + 40, width: 2, height: 12 }, pointsG);
      }
      tooltip(shape, p.detail);
    });

    var linksG = el('g', { id: 'links' }, svg);
    data.links.forEach(function (l) {
      var x1 = GUTTER + axis.x(l.s), x2 = GUTTER + axis.x(l.e);
      var y1 = laneY[l.fromLane] + 46, y2 = laneY[l.toLane] + 46;
      var line = el('line', { 'class': 'oob-link dimmable', x1: x1, y1: y1, x2: x2, y2: y2, 'marker-end': 'url(#arrow)',
        'data-from': l.from, 'data-to': l.to }, linksG);
      tooltip(line, 'OOB ' + l.kind + ': ' + data.hosts[laneById[l.fromLane].host].id + ' → '
        + data.hosts[laneById[l.toLane].host].id + ', in flight ' + duration(l.e - l.s) + ' (clock-corrected)');
    });

    placeLabels(svg, labels);
    drawEvidence(svg, laneY);
  }

  // Places labels most important first and skips any that would overlap one already placed.
  function placeLabels(svg, labels) {
    var g = el('g', { id: 'labels' }, svg);
    var taken = {};
    labels.sort(function (a, b) { return a.prio - b.prio || a.x - b.x; });
    labels.forEach(function (l) {
      var key = l.lane + '/' + (l.row || 'call');
      var t = el('text', { 'class': l.cls, x: l.x, y: l.y }, g, l.text);
      var w = t.getComputedTextLength ? t.getComputedTextLength() : l.text.length * 6;
      var spans = taken[key] = taken[key] || [];
      var clash = spans.some(function (s) { return l.x < s[1] + 4 && l.x + w > s[0] - 4; });
      if (clash) { g.removeChild(t); } else { spans.push([l.x, l.x + w]); }
    });
  }

  function drawEvidence(svg, laneY) {
    var g = el('g', { id: 'badges' }, svg);
    Object.keys(findingsOf).forEach(function (ev) {
      var target = document.getElementById(ev);
      if (!target) { return; }
      target.classList.add('evidence');
      target.setAttribute('data-findings', findingsOf[ev].join(' '));
      var box = target.getBBox();
      findingsOf[ev].forEach(function (n, i) {
        var b = el('g', { 'class': 'badge', 'data-finding': n }, g);
        el('circle', { cx: box.x + box.width / 2 + i * 13, cy: box.y - 5, r: 6 }, b);
        el('text', { x: box.x + box.width / 2 + i * 13, y: box.y - 2 }, b, String(n));
      });
    });
  }

  function highlight(finding, on) {
    var svg = document.getElementById('timeline-svg');
    if (!svg) { return; }
    svg.classList.toggle('highlighting', on);
    finding.evidence.forEach(function (ev) {
      var e = document.getElementById(ev);
      if (e) { e.classList.toggle('hl', on); }
    });
  }

  function header() {
    var hosts = document.getElementById('hosts');
    data.hosts.forEach(function (h) {
      var s = html('span', 'host', hosts);
      html('b', null, s, h.id);
      if (h.device) { s.appendChild(document.createTextNode(' ' + h.device)); }
      var clock = h.method === 'oob-ntp'
        ? ' clock ' + (h.offsetNs >= 0 ? '+' : '−') + duration(Math.abs(h.offsetNs)) + ' ± ' + duration(h.uncertaintyNs)
          + ' vs ' + h.reference + ' (' + h.samples + ' OOB messages)'
        : h.method === 'reference' ? ' reference clock' : ' clock not aligned (no messages both ways)';
      html('span', 'clock', s, clock);
    });
    var legend = document.getElementById('legend');
    [['call', 'rect', 'verbs call'], ['call fail', 'rect', 'failed call'], ['state-RTS qpstate', 'rect', 'QP state band'],
      ['wc', 'diamond', 'completion'], ['wc bad', 'diamond', 'error completion'], ['async', 'triangle', 'async event'],
      ['oob', 'circle', 'OOB message (arrow: sent → received)'], ['badge', 'badge', 'finding evidence']].forEach(function (item) {
      var span = html('span', 'item', legend);
      var s = el('svg', { width: 16, height: 14 }, span);
      if (item[1] === 'rect') { el('rect', { 'class': item[0], x: 1, y: 2, width: 14, height: 10 }, s); }
      if (item[1] === 'diamond') { el('path', { 'class': item[0], d: 'M 8 1 l 6 6 l -6 6 l -6 -6 z' }, s); }
      if (item[1] === 'triangle') { el('path', { 'class': item[0], d: 'M 8 1 l 6 12 l -12 0 z' }, s); }
      if (item[1] === 'circle') { el('circle', { 'class': item[0], cx: 8, cy: 7, r: 5 }, s); }
      if (item[1] === 'badge') { var b = el('g', { 'class': 'badge' }, s); el('circle', { cx: 8, cy: 7, r: 6 }, b); }
      span.appendChild(document.createTextNode(item[2]));
    });
    var list = document.getElementById('findings');
    if (!data.findings.length) { html('li', 'none', list, 'No findings: every rule passed.'); }
    data.findings.forEach(function (f, i) {
      var li = html('li', 'finding sev-' + f.severity, list);
      li.id = 'finding-' + (i + 1);
      li.setAttribute('data-evidence', f.evidence.join(' '));
      html('span', 'sev', li, f.severity);
      html('span', 'rule', li, f.rule);
      var where = (f.host || 'both hosts') + (f.qp !== null ? ' · QP 0x' + ('000000' + f.qp.toString(16)).slice(-6) : '');
      html('span', 'where', li, where);
      html('span', 'msg', li, f.message);
      html('span', 'refs', li, '[' + (i + 1) + '] ' + f.evidence.length + ' evidence event' + (f.evidence.length === 1 ? '' : 's'));
      li.addEventListener('mouseenter', function () { highlight(f, true); });
      li.addEventListener('mouseleave', function () { highlight(f, false); });
    });
  }

  header();
  render();
  document.getElementById('zoom-in').addEventListener('click', function () { view.zoom *= 1.6; render(); });
  document.getElementById('zoom-out').addEventListener('click', function () { view.zoom = Math.max(0.25, view.zoom / 1.6); render(); });
  document.getElementById('zoom-fit').addEventListener('click', function () { view.zoom = 1; render(); });
  document.getElementById('linear-time').addEventListener('change', function (e) { view.linear = e.target.checked; render(); });
  window.addEventListener('resize', function () { if (view.zoom === 1) { render(); } });
  document.body.setAttribute('data-rendered', 'true');
}());
