/// The live view's page: plain HTML, one script and one style sheet, shipped in the binary
/// (no build step). It works in current Chromium and Firefox.
///
/// DOM the tests read: each device is a `section.device[data-device]` holding an SVG with
/// `rect.region[data-id]` (and `rect.hit-area` where a region's hit area differs); each gesture
/// event is an `li.gesture` of `#gestures` with `data-kind`, `data-state`, `data-region` and
/// `data-time`; the latest touch sequence's failures are `li.failure` of `#failures`; the body's
/// `data-ended` is `true` once a recording has played to its end. Region names are
/// `text.region-label[data-id]` (class `beside` when drawn beside a region too small for it);
/// `#legend` holds one `.key` per mark.
enum ViewPage {
    /// Scripts, styles and the feed from this server only; nothing inline, nothing framed.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func html(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>gestured view — \(escaped(title))</title>
        <link rel="stylesheet" href="view.css">
        <script src="view.js" defer></script>
        </head>
        <body data-ended="false" data-connected="false">
        <header>
          <h1>gestured view <span id="title">\(escaped(title))</span></h1>
          <p id="status">connecting…</p>
          <p id="controls" hidden>
            <button id="play" type="button">play</button>
            <button id="pause" type="button">pause</button>
            <button id="step" type="button">step a frame</button>
            <button id="restart" type="button">restart</button>
            <span id="position"></span>
          </p>
          <p id="bench" hidden>
            fingers:
            <button class="fingers" type="button" data-fingers="1">1</button>
            <button class="fingers" type="button" data-fingers="2">2</button>
            <button class="fingers" type="button" data-fingers="3">3</button>
            <button class="fingers" type="button" data-fingers="4">4</button>
            <button class="fingers" type="button" data-fingers="5">5</button>
            <button id="save" type="button">save as recording</button>
            <button id="clear" type="button">clear</button>
            <a id="download" hidden download="bench.yaml">download the recording</a>
            <span class="hint">Drag on the layout to touch it (keys 1–5: fingers side by side). Shift-click sets a
            pivot: a drag then moves two fingers about it (or, with keys 3–5, that many around it), to pinch and rotate (Esc clears it).</span>
          </p>
        </header>
        <main>
          <div id="devices">
            <p id="legend">
              <span class="key"><svg viewBox="0 0 20 12"><rect class="region" x="1" y="1" width="18" height="10"/></svg> region</span>
              <span class="key"><svg viewBox="0 0 20 12"><rect class="hit-area" x="1" y="1" width="18" height="10"/></svg> its hit area</span>
              <span class="key"><svg viewBox="0 0 20 12"><rect class="region hit" x="1" y="1" width="18" height="10"/></svg> the latest gesture's region</span>
              <span class="key"><svg viewBox="0 0 20 12"><polyline class="trail" points="1,10 8,6 13,6"/><circle class="contact" cx="15" cy="6" r="4"/></svg> a finger, and its trail</span>
              <span class="key"><svg viewBox="0 0 20 12"><circle class="contact left-out" cx="10" cy="6" r="4"/></svg> a contact left out (palm, thumb, hover)</span>
              <span class="key"><svg viewBox="0 0 20 12"><text class="gesture-label" x="1" y="10" font-size="9">tap</text></svg> the latest gesture</span>
            </p>
          </div>
          <aside>
            <h2>Why not (the latest touches)</h2>
            <ol id="failures"></ol>
            <h2>Gestures</h2>
            <ol id="gestures"></ol>
          </aside>
        </main>
        </body>
        </html>

        """
    }

    static func escaped(_ s: String) -> String {
        s.replacingAll("&", "&amp;").replacingAll("<", "&lt;").replacingAll(">", "&gt;").replacingAll("\"", "&quot;")
    }

    static let style = """
        body { font-family: system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
        header { padding: 8px 16px; background: #fff; border-bottom: 1px solid #ddd; }
        h1 { font-size: 18px; margin: 0; }
        h1 span { font-weight: normal; color: #666; }
        h2 { font-size: 14px; margin: 12px 0 4px; }
        #status { margin: 4px 0; color: #555; font-size: 13px; }
        main { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
        #devices { flex: 3; display: flex; flex-direction: column; gap: 16px; }
        aside { flex: 2; font-size: 13px; }
        section.device { background: #fff; border: 1px solid #ddd; padding: 8px; }
        section.device.gone { opacity: 0.4; }
        section.device h3 { font-size: 14px; margin: 0 0 6px; }
        svg { width: 100%; height: auto; display: block; background: #fff; }
        rect.region { fill: #f2f2f2; fill-opacity: 0.6; stroke: #888; }
        rect.region.inactive { fill: none; stroke: #bbb; stroke-dasharray: 1 3; }
        rect.region.hit { fill: #ffe08a; }
        rect.hit-area { fill: none; stroke: #888; stroke-dasharray: 4 3; }
        body[data-source="bench"] section.device svg { touch-action: none; cursor: crosshair; }
        #bench .hint { display: block; color: #666; font-size: 12px; margin-top: 4px; }
        #bench button.fingers[aria-pressed="true"] { font-weight: bold; }
        circle.pivot { fill: none; stroke: #CC79A7; }
        li.action { color: #555; font-style: italic; }
        text.region-label { fill: #555; }
        circle.contact { fill: #0072B2; fill-opacity: 0.7; }
        circle.contact.left-out { fill: #D55E00; fill-opacity: 0.35; }
        polyline.trail { fill: none; stroke: #0072B2; stroke-opacity: 0.5; }
        polyline.trail.left-out { stroke: #D55E00; stroke-dasharray: 3 2; }
        polyline.trail.lifted { stroke-opacity: 0.25; }
        text.gesture-label { fill: #009E73; font-weight: bold; }
        ol { padding-left: 36px; margin: 0; }
        #legend { order: 2; margin: 0; font-size: 12px; color: #555; display: flex; flex-wrap: wrap; gap: 4px 14px; }
        #legend .key { white-space: nowrap; }
        #legend svg { display: inline-block; width: 20px; height: 12px; vertical-align: middle; background: none; }
        #legend rect, #legend polyline { stroke-width: 1; }
        #gestures { max-height: 60vh; overflow-y: auto; }
        li.gesture[data-state="recognized"], li.gesture[data-state="began"] { font-weight: bold; }
        li.failure { color: #8a3b00; }
        li .time { color: #888; font-variant-numeric: tabular-nums; margin-right: 6px; }
        """

    static let script = #"""
        'use strict';
        const SVG = 'http://www.w3.org/2000/svg';
        const TRAIL_POINTS = 30;
        const token = new URLSearchParams(location.search).get('token') || '';
        const devices = new Map();
        let socket = null;

        function make(tag, attrs, text) {
          const e = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
          if (text !== undefined) e.textContent = text;
          return e;
        }

        function status(text) { document.getElementById('status').textContent = text; }

        function send(command) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(command); }

        function drawDevice(m) {
          let d = devices.get(m.device);
          if (d) d.section.remove();
          const section = make('section', {class: 'device', 'data-device': m.device});
          // A recorded device has no node here: say it was recorded, not where it was.
          const source = document.body.dataset.source;
          section.append(make('h3', {}, source === 'recording' ? `${m.name} (${m.kind}), as recorded`
            : source === 'bench' ? `${m.name} (${m.kind}): touch it` : `${m.name} (${m.kind}) — ${m.device}`));
          const L = m.layout;
          const unit = Math.max(L.width, L.height) / 100;
          const svg = make('svg:svg', {viewBox: `${L.x} ${L.y} ${L.width} ${L.height}`, 'font-size': `${2.2 * unit}`});
          const regions = make('svg:g', {class: 'regions'});
          const regionRects = new Map();
          for (const r of m.regions) {
            const f = r.frame;
            const rect = make('svg:rect', {class: r.active ? 'region' : 'region inactive', 'data-id': r.id,
              x: f.x, y: f.y, width: f.width, height: f.height, 'stroke-width': 0.15 * unit});
            regions.append(rect);
            if (!regionRects.has(r.id)) regionRects.set(r.id, rect);
            if (r.hit_area) {
              const a = r.hit_area;
              regions.append(make('svg:rect', {class: 'hit-area', 'data-id': r.id, x: a.x, y: a.y, width: a.width, height: a.height,
                'stroke-width': 0.15 * unit}));
            }
          }
          const lifted = make('svg:g', {class: 'lifted'});
          const trails = make('svg:g', {class: 'trails'});
          const contacts = make('svg:g', {class: 'contacts'});
          const labels = make('svg:g', {class: 'labels'});
          svg.append(regions, lifted, trails, contacts, labels);
          section.append(svg);
          document.getElementById('devices').append(section);
          // Each region's name inside it, in a corner no region drawn over it covers (its
          // children, their hit areas), shrunk to fit; with no room, only a tooltip. Measured
          // once the drawing is in the page.
          const placed = [];
          m.regions.forEach((r, i) => {
            const why = r.hidden ? ' (hidden)' : r.disabled ? ' (disabled)' : '';
            const label = make('svg:text', {class: 'region-label', 'data-id': r.id, 'font-size': 2.2 * unit}, r.id + why);
            regions.append(label);
            const widthPerSize = label.getComputedTextLength() / (2.2 * unit);
            const areas = o => o.hit_area ? [o.frame, o.hit_area] : [o.frame];
            const contains = (a, b) => a.x <= b.x && a.y <= b.y && a.x + a.width >= b.x + b.width && a.y + a.height >= b.y + b.height;
            // Inside: clear of what is drawn over it. Beside (a region too small for its
            // name): clear of every other region but those holding it, within the root.
            const inside = labelSpot(r.frame, widthPerSize, unit, m.regions.slice(i + 1).flatMap(areas).concat(placed));
            if (!inside) label.classList.add('beside');
            const spot = inside || (i > 0 ? besideSpot(r.frame, widthPerSize, unit, L,
                    m.regions.filter((o, j) => j !== i && !(j < i && contains(o.frame, r.frame))).flatMap(areas).concat(placed)) : null);
            if (spot) {
              for (const [k, v] of Object.entries(spot.attributes)) label.setAttribute(k, v);
              placed.push(spot.box);
            } else {
              label.remove();
              const rect = regionRects.get(r.id);
              if (rect) rect.append(make('svg:title', {}, r.id + why));
            }
          });
          devices.set(m.device, {section, svg, lifted, trails, contacts, labels, regionRects, unit, points: new Map(), active: 0, hit: null,
            perMillimetre: m.units_per_mm || 1});
          if (document.body.dataset.source === 'bench') bench.attach(m.device);
        }

        // Where a region's label goes: the first corner of `f` (top left, top right, bottom left,
        // bottom right) where the text — `widthPerSize` times its font size wide — at the
        // default size or shrunk to fit f, covers none of `over`; null when it fits nowhere or
        // would be too small to read.
        function labelSpot(f, widthPerSize, unit, over) {
          const pad = 0.8 * unit;
          const size = Math.min(2.2 * unit, (f.width - 2 * pad) / Math.max(widthPerSize, 0.1), (f.height - 2 * pad) / 1.25);
          if (size < 1.3 * unit) return null;
          const w = widthPerSize * size, h = 1.25 * size;
          // Along the top, then the bottom: from the left, the right, and just past each thing
          // in the way.
          const xs = [f.x + pad, f.x + f.width - pad - w].concat(over.map(o => o.x + o.width + pad));
          for (const y of [f.y + pad, f.y + f.height - pad - h]) {
            for (const x of xs) {
              if (x < f.x + pad - 1e-6 || x + w > f.x + f.width - pad + 1e-6) continue;
              if (clearOf({x, y, width: w, height: h}, over)) return spot(x, y, w, h, size);
            }
          }
          return null;
        }

        // Beside a region too small for its name: below it, else above, centred on it, at most
        // the default size, clear of `over` and within the layout `L`; null when nowhere.
        function besideSpot(f, widthPerSize, unit, L, over) {
          const size = Math.max(1.3 * unit, Math.min(2.2 * unit, f.width / Math.max(widthPerSize, 0.1)));
          const w = widthPerSize * size, h = 1.25 * size;
          const x = Math.min(Math.max(f.x + (f.width - w) / 2, L.x), L.x + L.width - w);
          for (const y of [f.y + f.height + 0.2 * unit, f.y - h - 0.2 * unit]) {
            const box = {x, y, width: w, height: h};
            if (y >= L.y && y + h <= L.y + L.height && clearOf(box, over)) return spot(x, y, w, h, size);
          }
          return null;
        }

        function clearOf(b, over) {
          return over.every(o => b.x + b.width <= o.x || o.x + o.width <= b.x || b.y + b.height <= o.y || o.y + o.height <= b.y);
        }

        function spot(x, y, w, h, size) {
          return {attributes: {x, y: y + 0.95 * size, 'font-size': size}, box: {x, y, width: w, height: h}};
        }

        function drawFrame(m) {
          const d = devices.get(m.device);
          if (!d) return;
          const down = m.contacts.filter(c => c.phase !== 'ended' && c.phase !== 'cancelled');
          // A new touch sequence: the failures and trails shown are the latest one's (the
          // failures of this very frame came before it).
          if (d.active === 0 && m.contacts.some(c => c.phase === 'began')) {
            for (const li of [...document.querySelectorAll('#failures li.failure')]) {
              if (Number(li.dataset.time) < Number(m.time)) li.remove();
            }
            d.lifted.replaceChildren();
          }
          d.active = down.length;
          for (const c of m.contacts) {
            const trail = d.points.get(c.id) || [];
            trail.push(`${c.x},${c.y}`);
            if (trail.length > TRAIL_POINTS) trail.shift();
            d.points.set(c.id, trail);
          }
          d.trails.replaceChildren();
          d.contacts.replaceChildren();
          for (const c of m.contacts) {
            const leftOut = c.left_out ? ' left-out' : '';
            d.trails.append(make('svg:polyline', {class: 'trail' + leftOut, points: d.points.get(c.id).join(' '),
              'stroke-width': 0.4 * d.unit, 'data-id': c.id}));
            if (c.phase === 'ended' || c.phase === 'cancelled') {
              // Its trail stays, faded, until the next touches.
              d.lifted.append(make('svg:polyline', {class: 'trail lifted' + leftOut, points: d.points.get(c.id).join(' '),
                'stroke-width': 0.4 * d.unit}));
              d.points.delete(c.id);
              continue;
            }
            const dot = make('svg:circle', {class: 'contact' + leftOut, cx: c.x, cy: c.y, r: 1.5 * d.unit, 'data-id': c.id});
            if (c.left_out) dot.append(make('svg:title', {}, `left out: ${c.left_out}`));
            d.contacts.append(dot);
          }
        }

        function showGesture(m) {
          const li = make('li', {class: 'gesture', 'data-kind': m.kind, 'data-state': m.state, 'data-region': m.region,
            'data-time': m.time, 'data-device': m.source_device});
          li.append(make('span', {class: 'time'}, `${Number(m.time).toFixed(3)} s`));
          const touches = m.touches === 1 ? '1 touch' : `${m.touches} touches`;
          const client = m.client !== undefined ? ` of client ${m.client}` : '';
          li.append(`${m.kind} ${m.state} on ${m.region}${client} (${touches})`);
          document.getElementById('gestures').append(li);
          li.scrollIntoView({block: 'nearest'});
          const d = devices.get(m.source_device);
          if (!d) return;
          const rect = d.regionRects.get(m.region);
          // The latest gesture's region stays marked until the next gesture.
          if (rect && (m.state === 'recognized' || m.state === 'began')) {
            if (d.hit) d.hit.classList.remove('hit');
            rect.classList.add('hit');
            d.hit = rect;
          }
          if (m.state === 'recognized' || m.state === 'ended') {
            const label = make('svg:text', {class: 'gesture-label', x: m.x, y: m.y}, `${m.kind}`);
            d.labels.replaceChildren(label);
          }
        }

        function showFailure(m) {
          const li = make('li', {class: 'failure', 'data-kind': m.kind, 'data-region': m.region, 'data-time': m.time});
          li.append(make('span', {class: 'time'}, `${Number(m.time).toFixed(3)} s`), m.text);
          document.getElementById('failures').append(li);
        }

        // The touch bench: pointers on the drawing become touches, sent as `touch ID:PHASE:X:Y …`
        // in layout units. A mouse drag carries `fingers` fingers 15 mm apart in a row; with a
        // pivot set (shift-click), two fingers mirrored about it, or `fingers` (3 to 5) evenly
        // around it. Each touchscreen pointer in the browser is one finger.
        const bench = {
          fingers: 1,
          pivot: null,
          pointers: new Map(),
          attach(key) {
            const d = devices.get(key);
            const svg = d.svg;
            const at = e => {
              const p = svg.createSVGPoint();
              p.x = e.clientX; p.y = e.clientY;
              const q = p.matrixTransform(svg.getScreenCTM().inverse());
              return {x: q.x, y: q.y};
            };
            // A drag keeps the fingers it began with (count, pivot) until it ends.
            const fingersAt = (shape, p) => {
              if (shape.pivot) {
                // Two fingers mirrored about the pivot; more, evenly around it (the drag's finger first).
                const c = shape.pivot, n = Math.max(2, shape.count);
                if (n === 2) return [p, {x: 2 * c.x - p.x, y: 2 * c.y - p.y}];
                const dx = p.x - c.x, dy = p.y - c.y;
                return Array.from({length: n}, (_, i) => {
                  const a = 2 * Math.PI * i / n;
                  return {x: c.x + dx * Math.cos(a) - dy * Math.sin(a), y: c.y + dx * Math.sin(a) + dy * Math.cos(a)};
                });
              }
              const gap = 15 * d.perMillimetre;
              return Array.from({length: shape.count}, (_, i) => ({x: p.x + (i - (shape.count - 1) / 2) * gap, y: p.y}));
            };
            const touch = (e, phase) => {
              const id = e.pointerId;
              let drag = this.pointers.get(id);
              if (phase === 'down') {
                const single = e.pointerType === 'touch';
                drag = {shape: {count: single ? 1 : this.fingers, pivot: single ? null : this.pivot}, points: null};
                this.pointers.set(id, drag);
              }
              if (!drag) return;
              if (phase === 'down' || phase === 'move') drag.points = fingersAt(drag.shape, at(e));
              else this.pointers.delete(id);
              send('touch ' + drag.points.map((p, i) => `${id}.${i}:${phase}:${p.x.toFixed(2)}:${p.y.toFixed(2)}`).join(' '));
            };
            svg.addEventListener('pointerdown', e => {
              e.preventDefault();
              if (e.shiftKey && e.pointerType !== 'touch') {
                this.pivot = at(e);
                d.labels.replaceChildren(make('svg:circle', {class: 'pivot', cx: this.pivot.x, cy: this.pivot.y, r: 2 * d.unit,
                  'stroke-width': 0.4 * d.unit}));
                return;
              }
              try { svg.setPointerCapture(e.pointerId); } catch (_) { /* a pointer the browser does not know (a script's) */ }
              touch(e, 'down');
            });
            svg.addEventListener('pointermove', e => touch(e, 'move'));
            svg.addEventListener('pointerup', e => touch(e, 'up'));
            svg.addEventListener('pointercancel', e => touch(e, 'cancel'));
          },
          setFingers(n) {
            this.fingers = n;
            for (const b of document.querySelectorAll('#bench button.fingers')) b.setAttribute('aria-pressed', String(Number(b.dataset.fingers) === n));
          },
        };

        function showAction(m) {
          const li = make('li', {class: 'action', 'data-recognizer': m.recognizer});
          li.append(make('span', {class: 'time'}, `${Number(m.time).toFixed(3)} s`), m.run ? `→ ${m.recognizer} runs: ${m.action}` : `→ ${m.recognizer} would run: ${m.action} (not run)`);
          document.getElementById('gestures').append(li);
          li.scrollIntoView({block: 'nearest'});
        }

        function showRecording(m) {
          const link = document.getElementById('download');
          if (link.href) URL.revokeObjectURL(link.href);
          link.href = URL.createObjectURL(new Blob([m.yaml], {type: 'application/yaml'}));
          link.textContent = `download the recording (${m.events} events)` + (m.saved_to ? `, also written to ${m.saved_to}` : '');
          link.hidden = false;
          link.dataset.yaml = m.yaml;
        }

        function handle(m) {
          switch (m.type) {
            case 'hello':
              document.body.dataset.connected = 'true';
              document.body.dataset.source = m.source;
              document.getElementById('controls').hidden = m.source !== 'recording';
              document.getElementById('bench').hidden = m.source !== 'bench';
              status(m.source === 'recording' ? `replaying ${m.title}` : m.source === 'bench' ? `touch bench: ${m.title}` : `live: ${m.title}`);
              break;
            case 'device': drawDevice(m); break;
            case 'removed': { const d = devices.get(m.device); if (d) d.section.classList.add('gone'); break; }
            case 'frame': drawFrame(m); break;
            case 'gesture': showGesture(m); break;
            case 'failure': showFailure(m); break;
            case 'action': showAction(m); break;
            case 'recording': showRecording(m); break;
            case 'state':
              document.getElementById('position').textContent =
                `frame ${m.frame} of ${m.frames}${m.ended ? ' — the end' : m.paused ? ' — paused' : ''}`;
              document.body.dataset.ended = String(m.ended);
              document.body.dataset.paused = String(m.paused);
              break;
            case 'refused': status(`not connected: ${m.reason}`); document.body.dataset.refused = 'true'; break;
            case 'error': status(`the view says: ${m.reason}`); break;
          }
        }

        function connect() {
          const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
          socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
          socket.onmessage = e => handle(JSON.parse(e.data));
          socket.onclose = e => {
            document.body.dataset.connected = 'false';
            if (document.body.dataset.refused !== 'true') status(`disconnected (${e.code}${e.reason ? ': ' + e.reason : ''}); reload to connect again`);
          };
        }

        document.addEventListener('DOMContentLoaded', () => {
          for (const command of ['play', 'pause', 'step', 'restart', 'save', 'clear']) {
            document.getElementById(command).addEventListener('click', () => {
              if (command === 'restart' || command === 'clear') {
                document.getElementById('gestures').replaceChildren();
                document.getElementById('failures').replaceChildren();
              }
              send(command);
            });
          }
          for (const b of document.querySelectorAll('#bench button.fingers')) {
            b.addEventListener('click', () => bench.setFingers(Number(b.dataset.fingers)));
          }
          bench.setFingers(1);
          document.addEventListener('keydown', e => {
            if (document.body.dataset.source !== 'bench') return;
            if (e.key >= '1' && e.key <= '5') bench.setFingers(Number(e.key));
            if (e.key === 'Escape') {
              bench.pivot = null;
              for (const d of devices.values()) d.labels.replaceChildren();
            }
          });
          connect();
        });
        """#
}

extension String {
    func replacingAll(_ a: String, _ b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
