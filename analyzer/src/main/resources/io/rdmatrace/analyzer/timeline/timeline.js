// Draws the rdmatrace timeline from the JSON in #timeline-data: one lane per host and per QP,
// calls as bars, QP states as bands, completions/async events/messages as marks, out-of-band
// messages as arrows between the hosts, findings highlighted on their evidence. The time axis is
// linear, with the idle gaps the writer chose (data.axis) cut out and marked. No network, no
// libraries: plain DOM and SVG.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  var SVGNS = 'http://www.w3.org/2000/svg';
  var GUTTER = 250, AXIS_H = 30, LANE_H = 68, RIGHT_PAD = 30, GAP_PX = 34;
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

  // The time axis: the segments of data.axis side by side at one common scale, each cut idle gap
  // between them drawn GAP_PX wide. With "linear time" ticked, one segment and no cuts.
  function buildAxis(width) {
    var segs = view.linear ? [[0, data.span]] : data.axis.segments;
    var gaps = view.linear ? [] : data.axis.gaps;
    var shown = 0;
    segs.forEach(function (s) { shown += s[1] - s[0]; });
    var gapPx = gaps.length ? Math.min(GAP_PX, width * 0.25 / gaps.length) : GAP_PX;  // markers take at most 1/4
    var scale = shown > 0 ? Math.max(0, width - gaps.length * gapPx) / shown : 0;   // px per ns
    var starts = [], x = 0, i;
    for (i = 0; i < segs.length; i++) {
      starts.push(x);
      x += (segs[i][1] - segs[i][0]) * scale + (i < gaps.length ? gapPx : 0);
    }
    function pos(t) {
      var lo = 0, hi = segs.length - 1;
      while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (segs[mid][0] <= t) { lo = mid; } else { hi = mid - 1; } }
      var s = segs[lo];
      if (t <= s[1]) { return starts[lo] + Math.max(0, t - s[0]) * scale; }
      var g = gaps[lo], end = starts[lo] + (s[1] - s[0]) * scale;         // inside the cut gap after segment lo
      return g ? end + (t - g[0]) / Math.max(1, g[1] - g[0]) * gapPx : end;
    }
    var gapXs = gaps.map(function (g, k) { return [starts[k] + (segs[k][1] - segs[k][0]) * scale, g]; });
    return { x: pos, width: width, scale: scale, segs: segs, gaps: gapXs, gapPx: gapPx };
  }

  function niceStep(ns) {
    var p = Math.pow(10, Math.floor(Math.log(ns) / Math.LN10));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) { if (steps[i] * p >= ns) { return steps[i] * p; } }
    return 10 * p;
  }

  // Ticks at every multiple of one step (so they are evenly spaced in every segment) and a
  // marker for each cut gap, labelled with the idle time it stands for.
  function drawAxis(svg, axis, height) {
    var g = el('g', { 'class': 'axis', id: 'axis' }, svg);
    var taken = [];
    function free(a, b) { return taken.every(function (q) { return b + 6 < q[0] || a - 6 > q[1]; }); }
    axis.gaps.forEach(function (gp) {
      var x = GUTTER + gp[0], len = gp[1][1] - gp[1][0];
      var m = el('g', { 'class': 'gap', 'data-s': gp[1][0], 'data-e': gp[1][1] }, g);
      el('rect', { 'class': 'gap-band', x: x, y: AXIS_H - 6, width: axis.gapPx, height: height - AXIS_H + 6 }, m);
      var zig = '';
      for (var y = AXIS_H - 6, k = 0; y < height; y += 6, k++) { zig += (k ? ' L ' : 'M ') + (x + 4 + (k % 2) * 5) + ' ' + y; }
      el('path', { 'class': 'gap-edge', d: zig }, m);
      el('path', { 'class': 'gap-edge', d: zig.replace(/([ML]) ([0-9.]+)/g, function (all, c, v) {
        return c + ' ' + (parseFloat(v) + axis.gapPx - 13); }) }, m);
      var text = '⋯ ' + duration(len) + ' ⋯';
      var t = el('text', { 'class': 'gap-label', x: x + axis.gapPx / 2, y: AXIS_H - 12 }, m, text);
      var w = t.getComputedTextLength ? t.getComputedTextLength() : text.length * 6;
      if (free(x + axis.gapPx / 2 - w / 2, x + axis.gapPx / 2 + w / 2)) {
        t.setAttribute('data-w', w.toFixed(1));
        taken.push([x + axis.gapPx / 2 - w / 2, x + axis.gapPx / 2 + w / 2]);
      } else {
        m.removeChild(t);                           // no room: the marker's tooltip says how long
      }
      tooltip(m, 'idle ' + duration(len) + ' cut from the axis (+' + duration(gp[1][0]) + ' to +' + duration(gp[1][1])
        + '); untick "linear time" to see it at scale');
    });
    if (!(axis.scale > 0)) { return; }
    var step = niceStep(90 / axis.scale);
    axis.segs.forEach(function (s) {
      var times = [s[0]];                            // where the segment starts, then every step in it
      for (var k = Math.floor(s[0] / step) + 1; k * step <= s[1]; k++) { times.push(Math.round(k * step)); }
      times.forEach(function (t) {
        var px = GUTTER + axis.x(t);
        // the tick always (lines never collide); its label only where it has room, e.g. not under a
        // cut's label when the trace starts with idle time
        el('line', { 'class': 'axis-tick', x1: px, x2: px, y1: AXIS_H - 8, y2: height, 'data-t': t }, g);
        var label = '+' + duration(t);
        var lt = el('text', { 'class': 'axis-label', x: px + 2, y: AXIS_H - 12 }, g, label);
        var w = lt.getComputedTextLength ? lt.getComputedTextLength() : label.length * 6;
        if (!free(px + 2, px + 2 + w)) { g.removeChild(lt); return; }
        lt.setAttribute('data-w', w.toFixed(1));
        lt.setAttribute('data-t', t);
        taken.push([px + 2, px + 2 + w]);
      });
    });
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
      var g = el('g', { 'class': 'lane lane-' + l.kind + (l.count > 1 ? ' folded' : ''), id: 'lane-' + l.id,
        'data-host': l.host, 'data-count': l.count }, lanesG);
      el('rect', { 'class': 'lane-bg ' + l.kind, x: 0, y: y, width: GUTTER + width + RIGHT_PAD, height: LANE_H }, g);
      el('line', { 'class': 'lane-sep', x1: 0, x2: GUTTER + width + RIGHT_PAD, y1: y + LANE_H, y2: y + LANE_H }, g);
      var host = data.hosts[l.host];
      if (l.kind === 'host') {
        el('text', { 'class': 'lane-label host', x: 8, y: y + 20 }, g, l.label + (host.role ? ' (' + host.role + ')' : ''));
        el('text', { 'class': 'lane-sub', x: 8, y: y + 36 }, g, (host.device || 'verbs calls, messages, steps')
          + (host.integrity ? ' · trace ' + host.integrity : ''));
      } else if (l.qpNum === null && l.count > 1) {
        el('text', { 'class': 'lane-label qp', x: 20, y: y + 24 }, g, l.label);
        tooltip(g, l.members);
      } else {
        el('text', { 'class': 'lane-label qp', x: 20, y: y + 24 }, g, l.label + (l.count > 1 ? ' ×' + l.count : ''));
        if (l.count > 1) {
          el('text', { 'class': 'lane-sub', x: 20, y: y + 38 }, g, l.count + ' QPs with this history (times: the first)');
          tooltip(g, 'QPs ' + l.members);
        }
      }
    });
    drawAxis(svg, axis, height);

    var statesG = el('g', { id: 'states' }, svg);
    data.states.forEach(function (s) {
      var x1 = GUTTER + axis.x(s.s), x2 = GUTTER + axis.x(s.e), y = laneY[s.lane] + 56;
      var r = el('rect', { 'class': 'qpstate state-' + s.state + (s.why ? ' inferred' : ''), x: x1, y: y,
        width: Math.max(1, x2 - x1), height: 10, 'data-state': s.state }, statesG);
      tooltip(r, (s.why || s.state) + ' for ' + duration(s.e - s.s));
      if (x2 - x1 > s.state.length * 6 + 6) {
        el('text', { 'class': 'state-label', x: x1 + 3, y: y + 8 }, statesG, s.state);
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
        labels.push({ lane: c.lane, x: x2 - w, text: c.label, cls: 'call-label' + (c.ok ? '' : ' fail'), prio: prio });
      }
    });

    var pointsG = el('g', { id: 'points' }, svg);
    var marksG = el('g', { id: 'marks' }, svg);
    data.points.forEach(function (p) {
      var x = GUTTER + axis.x(p.t), top = laneY[p.lane], shape;
      var bad = p.bad ? ' bad' : '';
      if (p.kind === 'completion') {
        var cy = top + 50;
        shape = el('path', { 'class': 'wc dimmable' + bad, id: p.ev, d: 'M ' + x + ' ' + (cy - 5) + ' l 5 5 l -5 5 l -5 -5 z' }, pointsG);
        if (p.bad) { labels.push({ lane: p.lane, x: x + 6, text: p.label, cls: 'call-label fail', prio: 0 }); }
      } else if (p.kind === 'async') {
        var ay = top + 44;
        shape = el('path', { 'class': 'async dimmable' + bad, id: p.ev, d: 'M ' + x + ' ' + ay + ' l 6 10 l -12 0 z' }, pointsG);
        labels.push({ lane: p.lane, x: x + 7, text: p.label, cls: 'call-label' + (p.bad ? ' fail' : ''), prio: 0 });
      } else if (p.kind === 'oob') {
        shape = el('circle', { 'class': 'oob dimmable' + bad, id: p.ev, cx: x, cy: top + 50, r: 4.5 }, pointsG);
      } else if (p.kind === 'mark') {
        var verdict = / PASS$/.test(p.label) ? 'pass' : (p.bad ? 'fail' : 'info');
        data.lanes.forEach(function (l) {
          if (l.host === laneById[p.lane].host) {
            el('line', { 'class': 'mark-line ' + verdict, x1: x, x2: x, y1: laneY[l.id], y2: laneY[l.id] + LANE_H }, marksG);
          }
        });
        shape = el('path', { 'class': 'mark dimmable ' + verdict + bad, id: p.ev, d: 'M ' + x + ' ' + (top + 2) + ' l 8 4 l -8 4 z' }, pointsG);
        labels.push({ lane: p.lane, x: x + 9, text: p.label, cls: 'mark-label ' + verdict, prio: verdict === 'info' ? 3 : 0 });
      } else if (p.kind === 'packet') {               // the QP's packet lane: what a capture saw going to it
        shape = el('rect', { 'class': 'packet dimmable' + bad, id: p.ev, x: x - 1, y: top + 42, width: 2, height: 9 }, pointsG);
        if (p.bad) { labels.push({ lane: p.lane, x: x + 3, text: p.label, cls: 'call-label fail', prio: 1 }); }
      } else {
        shape = el('rect', { 'class': p.kind + ' dimmable', id: p.ev, x: x - 1, y: top + 44, width: 2, height: 12 }, pointsG);
      }
      tooltip(shape, p.detail);
    });

    var linksG = el('g', { id: 'links' }, svg);
    data.links.forEach(function (l) {
      var x1 = GUTTER + axis.x(l.s), x2 = GUTTER + axis.x(l.e);
      var y1 = laneY[l.fromLane] + 50, y2 = laneY[l.toLane] + 50;
      var line = el('line', { 'class': 'oob-link dimmable' + (l.clamped > 0 ? ' clamped' : ''), x1: x1, y1: y1, x2: x2, y2: y2,
        'marker-end': 'url(#arrow)', 'data-from': l.from, 'data-to': l.to, 'data-count': l.count }, linksG);
      var from = data.hosts[laneById[l.fromLane].host].id, to = data.hosts[laneById[l.toLane].host].id;
      tooltip(line, 'OOB ' + l.kind + (l.count > 1 ? ' ×' + l.count : '') + ': ' + from + ' → ' + to + ', in flight '
        + duration(l.e - l.s) + ' (clock-corrected)' + (l.clamped > 0 ? '\nthe corrected receive time was '
        + duration(l.clamped) + ' before the send; drawn at zero flight time ('
        + (l.clamped <= l.uncertainty ? 'within' : 'beyond') + ' the clock offset\'s ±' + duration(l.uncertainty)
        + ' uncertainty)' : ''));
      labels.push({ lane: l.fromLane, x: x1 + 6, text: l.kind + (l.count > 1 ? ' ×' + l.count : ''), cls: 'oob-label', prio: 2 });
    });

    placeLabels(svg, labels, laneY, GUTTER + width + RIGHT_PAD - 2);
    drawEvidence(svg, laneY);
  }

  // Places labels most important first, in the first of its lane's two label rows where it
  // overlaps no label already placed there; a label that fits nowhere is left out (its text is
  // in the tooltip). Every placed label carries its width (data-w) so a test can check overlaps.
  function placeLabels(svg, labels, laneY, right) {
    var g = el('g', { id: 'labels' }, svg);
    var rows = {};
    labels.sort(function (a, b) { return a.prio - b.prio || a.x - b.x; });
    labels.forEach(function (l) {
      var t = el('text', { 'class': l.cls, x: l.x, y: 0 }, g, l.text);
      var w = t.getComputedTextLength ? t.getComputedTextLength() : l.text.length * 6;
      if (l.x + w > right) {                        // keep it on the page, left of the edge
        l.x = Math.max(GUTTER, right - w);
        t.setAttribute('x', l.x);
      }
      for (var r = 0; r < 2; r++) {
        var key = l.lane + '/' + r;
        var spans = rows[key] = rows[key] || [];
        var clash = spans.some(function (s) { return l.x < s[1] + 4 && l.x + w > s[0] - 4; });
        if (!clash) {
          spans.push([l.x, l.x + w]);
          t.setAttribute('y', laneY[l.lane] + 31 + 12 * r);
          t.setAttribute('data-w', w.toFixed(1));
          return;
        }
      }
      g.removeChild(t);
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
      // above a call bar (the lane's top is free); right of a point (above it is a label row)
      var above = target.tagName === 'rect' && target.classList.contains('call');
      findingsOf[ev].forEach(function (n, i) {
        var b = el('g', { 'class': 'badge', 'data-finding': n }, g);
        var cx = above ? box.x + box.width / 2 + i * 13 : box.x + box.width + 8 + i * 13;
        var cy = above ? box.y - 5 : box.y + box.height / 2;
        el('circle', { cx: cx, cy: cy, r: 6 }, b);
        el('text', { x: cx, y: cy + 3 }, b, String(n));
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
      if (h.integrity) { html('span', 'integrity', s, ' trace ' + h.integrity); }
      var clock = h.method === 'oob-ntp'
        ? ' clock ' + (h.offsetNs >= 0 ? '+' : '−') + duration(Math.abs(h.offsetNs)) + ' ± ' + duration(h.uncertaintyNs)
          + ' vs ' + h.reference + ' (' + h.samples + ' OOB messages)'
        : h.method === 'reference' ? ' reference clock' : ' clock not aligned (no messages both ways)';
      html('span', 'clock', s, clock);
    });
    var legend = document.getElementById('legend');
    [['call', 'rect', 'verbs call'], ['call fail', 'rect', 'failed call'], ['state-RTS qpstate', 'rect', 'QP state band'],
      ['state-ERR qpstate', 'rect', 'ERR / SQE (queried or inferred)'],
      ['wc', 'diamond', 'completion'], ['wc bad', 'diamond', 'error completion'], ['async', 'triangle', 'async event'],
      ['oob', 'circle', 'OOB message (arrow: sent → received; dashed: clamped to the clock uncertainty)'],
      ['packet bad', 'rect', 'captured packet to the QP (red: NAK; analyze/timeline --pcap)'],
      ['evidence call', 'rect', 'finding evidence (numbered badge)'], ['gap-band', 'rect', 'idle time cut from the axis']].forEach(function (item) {
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
      if (f.count > 1) { html('span', 'also', li, ' ×' + f.count + ', also on ' + f.others); }
      html('span', 'refs', li, '[' + (i + 1) + '] ' + f.evidence.length + ' evidence event' + (f.evidence.length === 1 ? '' : 's')
        + (f.hidden > 0 ? ' (+' + f.hidden + ' on folded lanes)' : ''));
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
