/// The viewer page served at `GET /`: plain HTML, CSS and JavaScript, no external assets.
///
/// The preview is the MJPEG stream in an `<img>`; a `<canvas>` sized to the image's displayed
/// box (device-pixel exact) sits on top and redraws the latest SSE overlay with Vision's
/// transform: normalised lower-left `(x, y)` maps to `(x * W, (1 - y) * H)`. Image items (saliency
/// heat maps: small RGBA PNGs as data URLs) are drawn first, stretched over their points' box with
/// their opacity, so lines and labels stay on top; while a new frame's image decodes, the previous
/// one stays up (no flicker).
///
/// Liveness: a multipart stream that ends cleanly fires no `error` on the `<img>`, so the page
/// reloads the preview (with a cache-buster) whenever the event stream reopens after a drop
/// (the server restarted) and when a watchdog sees the picture frozen while analysis goes on.
/// An SSE `status` event (``ViewerStatus``) of `ended`, `failed` or `stopped` switches the page to an
/// explicit ended state: badge, dimmed last frame, no overlay, stats replaced by the reason.
///
/// Counting (`live --count-line`): the line is an ordinary item; the totals per label show in the top-right
/// corner. Pinned labels (`live --pin-labels`): the update's `topLabel` shows in the top-left corner; a click
/// on the preview posts `{x, y}` (normalised, lower-left) to `/anchors`, which pins that label there; each of
/// the update's `anchors` is an HTML element (`.anchor`, with `data-id`, `data-state`, `data-x`, `data-y`) drawn
/// at its tracked point, green / yellow / red for normal / limited / lost, whose × sends `DELETE /anchors/{id}`.
/// `body[data-frame]` is the frame index of the overlay shown (for tests and debugging).
let viewerPageHTML = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>OpenVision live</title>
    <style>
      html, body { margin: 0; height: 100%; background: #16181c; color: #d8dde3;
        font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
      header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 18px; padding: 8px 12px; }
      h1 { margin: 0; font-size: 15px; font-weight: 600; color: #fff; }
      #status { font-size: 12px; padding: 1px 7px; border-radius: 9px; background: #553; color: #fe9; }
      #status.live { background: #1f4d2b; color: #8f8; }
      #status.ended { background: #4d2323; color: #f99; }
      body.ended #preview { opacity: 0.45; filter: grayscale(1); }
      #stats { font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; color: #aeb6bf; }
      main { display: flex; justify-content: center; padding: 0 12px 12px; }
      #stage { position: relative; line-height: 0; }
      #preview { display: block; max-width: calc(100vw - 24px); max-height: calc(100vh - 56px);
        width: auto; height: auto; background: #000; }
      #overlay { position: absolute; left: 0; top: 0; pointer-events: none; }
      #anchors { position: absolute; left: 0; top: 0; width: 0; height: 0; pointer-events: none; }
      .anchor { position: absolute; width: 0; height: 0; line-height: 1.3; }
      .anchor .dot { position: absolute; left: -7px; top: -7px; width: 10px; height: 10px; border-radius: 50%;
        background: #2f2; border: 2px solid #000; }
      .anchor[data-state="limited"] .dot { background: #fd0; }
      .anchor[data-state="lost"] .dot { background: #f33; }
      .anchor[data-state="lost"] .tag { opacity: 0.6; }
      .anchor .tag { position: absolute; left: 9px; top: -30px; white-space: nowrap; pointer-events: auto;
        background: rgba(0, 0, 0, 0.72); color: #fff; font: 600 13px system-ui, 'DejaVu Sans', sans-serif;
        padding: 2px 4px 2px 7px; border-radius: 4px; }
      .anchor .remove { margin-left: 6px; border: 0; background: #444; color: #fff; border-radius: 3px;
        font: 700 13px/1 system-ui, sans-serif; padding: 2px 5px; cursor: pointer; }
      .corner { position: absolute; top: 8px; padding: 4px 9px; border-radius: 5px; background: rgba(0, 0, 0, 0.65);
        color: #fff; font: 600 15px/1.35 system-ui, 'DejaVu Sans', sans-serif; pointer-events: none; white-space: pre; }
      #toplabel { left: 8px; }
      #counts { right: 8px; font-size: 13px; }
      .corner:empty { display: none; }
      body.pinning #preview { cursor: crosshair; }
    </style>
    </head>
    <body>
    <header>
      <h1>OpenVision live</h1>
      <span id="status">connecting…</span>
      <span id="stats">waiting for analysis…</span>
    </header>
    <main>
      <div id="stage">
        <img id="preview" alt="live preview" src="stream.mjpg">
        <canvas id="overlay"></canvas>
        <div id="anchors"></div>
        <div id="toplabel" class="corner"></div>
        <div id="counts" class="corner"></div>
      </div>
    </main>
    <script>
    "use strict";
    (function () {
      const img = document.getElementById("preview");
      const canvas = document.getElementById("overlay");
      const ctx = canvas.getContext("2d");
      const statusEl = document.getElementById("status");
      const statsEl = document.getElementById("stats");
      let latest = null;      // last OverlayUpdate
      let images = [];        // decoded image items of `latest`, by item index
      let fallback = [];      // the last decoded image per index, drawn while a newer one decodes
      let retryTimer = null;
      const anchorsEl = document.getElementById("anchors");
      const topLabelEl = document.getElementById("toplabel");
      const countsEl = document.getElementById("counts");

      // Keep the canvas exactly over the image's displayed box, at device-pixel resolution.
      function fitCanvas() {
        const w = img.clientWidth, h = img.clientHeight;
        const dpr = window.devicePixelRatio || 1;
        canvas.style.left = img.offsetLeft + "px";
        canvas.style.top = img.offsetTop + "px";
        canvas.style.width = w + "px";
        canvas.style.height = h + "px";
        const bw = Math.max(0, Math.round(w * dpr)), bh = Math.max(0, Math.round(h * dpr));
        if (canvas.width !== bw || canvas.height !== bh) { canvas.width = bw; canvas.height = bh; }
        if (anchorsEl) {
          anchorsEl.style.left = img.offsetLeft + "px";
          anchorsEl.style.top = img.offsetTop + "px";
        }
        draw();
        placeAnchors();
      }

      // Pinned labels: one element per anchor, at its tracked point over the preview.
      let anchorList = [];
      function placeAnchors() {
        if (!anchorsEl) return;
        const W = img.clientWidth, H = img.clientHeight;
        const seen = new Set();
        for (const a of anchorList) {
          if (!a || typeof a.id !== "number") continue;
          seen.add(String(a.id));
          let el = anchorsEl.querySelector('.anchor[data-id="' + a.id + '"]');
          if (!el) {
            el = document.createElement("div");
            el.className = "anchor";
            el.dataset.id = String(a.id);
            const dot = document.createElement("span"); dot.className = "dot";
            const tag = document.createElement("span"); tag.className = "tag";
            const text = document.createElement("span"); text.className = "text";
            const remove = document.createElement("button"); remove.className = "remove"; remove.type = "button";
            remove.title = "remove this label"; remove.textContent = "×";
            remove.addEventListener("click", (e) => {
              e.stopPropagation();
              fetch("anchors/" + a.id, { method: "DELETE" }).then(() => {
                anchorList = anchorList.filter(b => b.id !== a.id);
                placeAnchors();
              });
            });
            tag.appendChild(text); tag.appendChild(remove);
            el.appendChild(dot); el.appendChild(tag);
            anchorsEl.appendChild(el);
          }
          el.dataset.state = a.state || "normal";
          el.dataset.x = String(a.x);
          el.dataset.y = String(a.y);
          el.querySelector(".text").textContent = a.label + (a.state && a.state !== "normal" ? " (" + a.state + ")" : "");
          el.style.left = (a.x * W) + "px";
          el.style.top = ((1 - a.y) * H) + "px";
        }
        for (const el of Array.from(anchorsEl.querySelectorAll(".anchor"))) {
          if (!seen.has(el.dataset.id)) el.remove();
        }
      }

      function showCorners(u) {
        if (topLabelEl) {
          const t = u && u.topLabel;
          topLabelEl.textContent = t ? t.identifier.split(",")[0] + "  " + fmt(t.confidence * 100, 0) + "%" : "";
        }
        if (countsEl) {
          const c = u && u.counting;
          if (!c) { countsEl.textContent = ""; return; }
          const labels = Array.from(new Set(Object.keys(c.inByLabel || {}).concat(Object.keys(c.outByLabel || {})))).sort();
          countsEl.textContent = "in " + c.totalIn + " · out " + c.totalOut +
            labels.map(l => "\n" + (l || "?") + ": in " + ((c.inByLabel || {})[l] || 0) + " · out " + ((c.outByLabel || {})[l] || 0)).join("");
        }
      }

      // A click on the preview pins the current top label there (when the server pins labels).
      let pinning = false;
      img.addEventListener("click", (e) => {
        if (!pinning || ended) return;
        const r = img.getBoundingClientRect();
        if (!r.width || !r.height) return;
        const x = (e.clientX - r.left) / r.width, y = 1 - (e.clientY - r.top) / r.height;
        fetch("anchors", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ x: x, y: y }) })
          .then(res => res.json().then(body => ({ ok: res.ok, body: body })))
          .then(({ ok, body }) => {
            if (ok) { anchorList = anchorList.filter(b => b.id !== body.id).concat([body]); placeAnchors(); }
            else statsEl.textContent = "cannot pin: " + (body.error || "refused");
          })
          .catch(() => {});
      });

      function textColorFor(hex) {
        const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
        if (!m) return "#000";
        const [r, g, b] = [m[1], m[2], m[3]].map(v => parseInt(v, 16));
        return (0.299 * r + 0.587 * g + 0.114 * b) > 140 ? "#000" : "#fff";
      }

      function ready(im) { return !!(im && im.complete && im.naturalWidth > 0); }

      // Image items (heat maps) of a new update: decode them; each redraws when ready.
      function loadImages(u) {
        fallback = images.map((im, i) => ready(im) ? im : fallback[i]);
        images = ((u && u.items) || []).map(item => {
          if (!item || typeof item.image !== "string") return null;
          const im = document.createElement("img");
          im.onload = draw;
          im.src = item.image;
          return im;
        });
      }

      function drawImages(W, H) {
        (latest.items || []).forEach((item, i) => {
          if (!item || typeof item.image !== "string" || !(item.points || []).length) return;
          const im = ready(images[i]) ? images[i] : ready(fallback[i]) ? fallback[i] : null;
          if (!im) return;
          const xs = item.points.map(p => p[0] * W), ys = item.points.map(p => (1 - p[1]) * H);
          const x0 = Math.min(...xs), y0 = Math.min(...ys);
          ctx.globalAlpha = typeof item.opacity === "number" ? Math.min(1, Math.max(0, item.opacity)) : 0.5;
          ctx.imageSmoothingEnabled = true;
          ctx.drawImage(im, x0, y0, Math.max(...xs) - x0, Math.max(...ys) - y0);
          ctx.globalAlpha = 1;
        });
      }

      function draw() {
        const dpr = window.devicePixelRatio || 1;
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        if (!latest || !canvas.width || !canvas.height) return;
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        const W = canvas.width / dpr, H = canvas.height / dpr;
        const lineWidth = Math.max(2, Math.round(Math.min(W, H) / 250));
        ctx.lineJoin = "round";
        ctx.font = "600 13px system-ui, 'DejaVu Sans', sans-serif";
        ctx.textBaseline = "top";
        drawImages(W, H);
        for (const item of latest.items || []) {
          if (!item || typeof item.image === "string") continue;
          const color = item.color || "#00ff66";
          // Vision's normalised lower-left coordinates -> canvas pixels.
          const pts = (item.points || []).map(p => [p[0] * W, (1 - p[1]) * H]);
          if (!pts.length) continue;
          ctx.strokeStyle = color;
          ctx.fillStyle = color;
          ctx.lineWidth = lineWidth;
          if (pts.length === 1) {
            ctx.beginPath(); ctx.arc(pts[0][0], pts[0][1], lineWidth * 1.5, 0, 2 * Math.PI); ctx.fill();
          } else {
            ctx.beginPath();
            ctx.moveTo(pts[0][0], pts[0][1]);
            for (let i = 1; i < pts.length; i++) ctx.lineTo(pts[i][0], pts[i][1]);
            if (item.closed) ctx.closePath();
            ctx.stroke();
          }
          if (item.label) {
            const minX = Math.min(...pts.map(p => p[0])), minY = Math.min(...pts.map(p => p[1]));
            const padX = 4, boxH = 18;
            const boxW = ctx.measureText(item.label).width + 2 * padX;
            let x = Math.min(Math.max(0, minX - lineWidth / 2), Math.max(0, W - boxW));
            let y = minY - boxH - lineWidth / 2;
            if (y < 0) y = Math.max(0, minY + lineWidth / 2);   // no room above: put it inside the top edge
            ctx.fillStyle = color;
            ctx.fillRect(x, y, boxW, boxH);
            ctx.fillStyle = textColorFor(color);
            ctx.fillText(item.label, x + padX, y + 2);
          }
        }
      }

      function fmt(v, digits) { return (typeof v === "number" && isFinite(v)) ? v.toFixed(digits) : "–"; }

      function showStats(u) {
        const s = u.stats || {};
        statsEl.textContent =
          "capture " + fmt(s.captureFPS, 1) + " fps · analysed " + fmt(s.analysedFPS, 1) + " fps · " +
          "latency p50 " + fmt(s.latencyP50Ms, 1) + " ms / p99 " + fmt(s.latencyP99Ms, 1) + " ms · " +
          "dropped " + (s.dropped ?? "–") + " · frame #" + u.frameIndex;
      }

      let opened = false;      // the event stream has been open before
      let ended = false;       // the server said the source ended or the server stopped
      let lastIndex = -1;      // frameIndex of the newest overlay
      let watch = null;        // stall watchdog: a tiny sample of the picture and the analysis position

      function setBadge(text, cls) { statusEl.textContent = text; statusEl.className = cls; }

      // Reconnect the MJPEG preview; the cache-buster makes the browser open a new request.
      function reloadPreview() {
        if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
        img.src = "stream.mjpg?t=" + Date.now();
      }

      function showLive() {
        ended = false;
        document.body.classList.remove("ended");
        setBadge("live", "live");
      }

      function showEnded(status) {
        ended = true;
        document.body.classList.add("ended");
        setBadge(status.state === "stopped" ? "server stopped" : status.state === "failed" ? "source failed" : "source ended", "ended");
        latest = null; images = []; fallback = [];
        draw();
        showCorners(null);
        statsEl.textContent = (status.detail ? status.detail + " · " : "") + "the picture shown is the last frame";
      }

      function connectEvents() {
        const es = new EventSource("events");
        es.onopen = () => {
          // Back after a drop: the old preview stream ended without an error event, so reload it.
          if (opened) reloadPreview();
          opened = true;
          showLive();
        };
        es.onerror = () => {
          if (!ended) setBadge("reconnecting…", "");
          // Refused (503, 403): browsers give up on the stream; try again later ourselves.
          if (es.readyState === EventSource.CLOSED) { es.close(); setTimeout(connectEvents, 2000); }
        };
        es.onmessage = (e) => {
          try { latest = JSON.parse(e.data); } catch (_) { return; }
          loadImages(latest);
          if (ended) showLive();
          if (typeof latest.frameIndex === "number") lastIndex = latest.frameIndex;
          showStats(latest);
          draw();
          if (Array.isArray(latest.anchors)) {
            pinning = true;
            if (document.body.classList) document.body.classList.add("pinning");
            anchorList = latest.anchors;
            placeAnchors();
          }
          if (document.body.dataset) document.body.dataset.frame = String(latest.frameIndex);
          showCorners(latest);
        };
        es.addEventListener("status", (e) => {
          let status;
          try { status = JSON.parse(e.data); } catch (_) { return; }
          if (status.state === "live") showLive(); else showEnded(status);
        });
      }

      // Stall watchdog: every 3 s, sample the picture; if it has not changed over `patience`
      // samples while the analysis moved on (so frames are being captured), reload the preview.
      // A scene that is really still would reload again and again: each reload that leaves the
      // picture unchanged doubles the patience (up to ~2 min); a changing picture resets it.
      let patience = 3;
      const probe = document.createElement("canvas");
      probe.width = probe.height = 8;
      function samplePicture() {
        try {
          const p = probe.getContext("2d");
          p.drawImage(img, 0, 0, 8, 8);
          return Array.from(p.getImageData(0, 0, 8, 8).data).join(",");
        } catch (_) { return null; }
      }
      setInterval(() => {
        if (ended || !opened) { watch = null; return; }
        const sample = samplePicture();
        if (sample === null) return;
        if (!watch || watch.sample !== sample) {
          if (watch) patience = 3;
          watch = { sample: sample, index: lastIndex, same: 0 };
          return;
        }
        watch.same += 1;
        if (watch.same >= patience && lastIndex !== watch.index) {
          patience = Math.min(patience * 2, 40);
          reloadPreview();
          watch = { sample: sample, index: lastIndex, same: 0 };
        }
      }, 3000);

      // If the MJPEG stream fails (server down), retry it.
      img.addEventListener("error", () => {
        if (retryTimer) return;
        retryTimer = setTimeout(() => { retryTimer = null; img.src = "stream.mjpg?t=" + Date.now(); }, 1000);
      });
      img.addEventListener("load", fitCanvas);
      if (window.ResizeObserver) new ResizeObserver(fitCanvas).observe(img);
      window.addEventListener("resize", fitCanvas);
      connectEvents();
      fitCanvas();
    })();
    </script>
    </body>
    </html>
    """#
