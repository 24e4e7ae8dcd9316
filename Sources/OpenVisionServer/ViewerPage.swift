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
    draw();
  }

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
