"use strict";
const svgText = new Map();   // design key -> SVG text
const PX_PER_MM = 1.6;       // every card on the page at one scale: a poker card with its bleed is 111 px wide
const MIN_TILE_PX = 150;     // a tile holds its caption, however small its component

// the page's own elements, found once before any card is drawn: a drawing's id ("modal", "close") cannot
// stand in for them
const PAGE = Object.freeze(Object.fromEntries(["when", "errors", "general", "nav", "games", "modal", "close", "dot"]
  .map(id => [id, document.getElementById(id)])));
const MODAL_BIG = PAGE.modal.querySelector(".big"), MODAL_INFO = PAGE.modal.querySelector(".info");

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }
let state = null;
let loading = false, again = false, drawn = 0;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// The SVG comes from the game's own templates, with every sheet value escaped, and the server has
// already cut it down to its drawing (preview/svgsafe.py); the page does the same again, with the same
// allow-list, so that nothing in it can run, load anything, restyle the page or link anywhere:
// only the elements of a plain drawing stay (an <a> becomes a <g>), no event handler, no class, no
// reference but to the same drawing ("#id") or to a picture the build placed, and no CSS value with a
// url() to anything else, an @import, an expression or an escape.
const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const DRAWING = new Set(`svg g defs rect circle ellipse line polyline polygon path text tspan image title desc
  clipPath linearGradient radialGradient stop mask pattern use symbol marker
  filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting
  feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR
  feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting
  feSpotLight feTile feTurbulence`.split(/\s+/));
const CSS_FUNCTIONS = new Set(["", "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
  "matrix", "translate", "translatex", "translatey", "scale", "scalex", "scaley", "rotate", "skewx", "skewy",
  "calc", "min", "max", "clamp"]);
const BAD_CSS = ["\\", "/*", "@import", "expression", "javascript:", "vbscript:", "data:"];
const ROOT_DROPPED = new Set(["id", "style", "overflow", "class"]);
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Z}]/gu;

function strip(v) { return v.replace(INVISIBLE, ""); }
function squeeze(v) { return strip(v).toLowerCase(); }
function pictureRef(spec) {
  const parts = (spec || "").split(" ");
  return parts.length > 1 && /^[0-9a-f]{32}$/.test(parts[1]) ? "/pictures/" + parts[1] : null;
}
function safeCss(value) {
  const s = squeeze(value);
  if (BAD_CSS.some(b => s.includes(b))) return false;
  for (const m of s.matchAll(/([a-z0-9_-]*)\(/g)) {
    if (m[1] === "url") {
      if (!s.slice(m.index + m[0].length).replace(/^["']+/, "").startsWith("#")) return false;
    } else if (!CSS_FUNCTIONS.has(m[1])) return false;
  }
  return true;
}

function cleanAttributes(n, root, image) {
  for (const a of Array.from(n.attributes)) {
    const ns = a.namespaceURI, name = a.localName, low = name.toLowerCase();
    let keep = true, value = null;
    if (ns === XMLNS_NS) keep = true;  // a namespace declaration
    else if (!(ns === null || (ns === XLINK_NS && name === "href") ||
               (ns === XML_NS && (name === "space" || name === "lang")))) keep = false;
    else if (low.startsWith("on") || name === "class" || (root && ROOT_DROPPED.has(name))) keep = false;
    else if (low === "href" || low === "src") {
      const ref = strip(a.value);
      keep = !image && ref.length > 1 && ref.startsWith("#");
      value = ref;
    } else if (!name.startsWith("data-") && !safeCss(a.value)) keep = false;
    if (!keep) n.removeAttributeNode(a);
    else if (value !== null && value !== a.value) a.value = value;
  }
  if (image) n.setAttribute("href", pictureRef(n.getAttribute("data-pnp-picture")));
}

function cleanTree(root) {
  const stack = [root];
  while (stack.length) {
    const parent = stack.pop();
    for (const child of Array.from(parent.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE || child.nodeType === Node.CDATA_SECTION_NODE) continue;
      if (child.nodeType !== Node.ELEMENT_NODE) { child.remove(); continue; }
      let n = child;
      if (n.namespaceURI === SVG_NS && n.localName === "a") {  // its drawing stays, its link goes
        const g = n.ownerDocument.createElementNS(SVG_NS, "g");
        for (const a of Array.from(n.attributes)) g.setAttributeNodeNS(a.cloneNode());
        while (n.firstChild) g.appendChild(n.firstChild);
        n.replaceWith(g);
        n = g;
      }
      if (n.namespaceURI !== SVG_NS || !DRAWING.has(n.localName) ||
          (n.localName === "image" && !pictureRef(n.getAttribute("data-pnp-picture")))) { n.remove(); continue; }
      cleanAttributes(n, false, n.localName === "image");
      stack.push(n);
    }
  }
}

function cleanSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== SVG_NS || root.localName !== "svg") return null;
  cleanAttributes(root, true, false);
  cleanTree(root);
  return root;
}

function svgNode(key, pxPerMm) {
  const text = svgText.get(key);
  if (!text) return el("div", "missing", "…");
  const root = cleanSvg(text);
  if (!root) return el("div", "missing", "(unreadable SVG)");
  const mm = /^\s*([0-9.]+)\s*mm\s*$/.exec(root.getAttribute("width") || "");
  root.removeAttribute("width"); root.removeAttribute("height");
  root.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const node = document.importNode(root, true);
  if (pxPerMm && mm) node.style.width = (parseFloat(mm[1]) * pxPerMm).toFixed(1) + "px";
  return node;
}

function side(key, label, pxPerMm) {
  const box = el("div", "side");
  box.appendChild(svgNode(key, pxPerMm));
  if (label) box.appendChild(el("div", "label", label));
  return box;
}

async function fetchSvgs(keys) {
  const wanted = keys.filter(k => k && !svgText.has(k));
  for (let i = 0; i < wanted.length; i += 40) {
    const part = wanted.slice(i, i + 40);
    const r = await fetch("/api/svg?keys=" + encodeURIComponent(part.join(",")));
    const got = await r.json();
    for (const [k, v] of Object.entries(got)) svgText.set(k, v);
  }
}

function cardTile(c) {
  const tile = el("article", "card");
  tile.dataset.id = c.id; tile.dataset.game = c.game; tile.dataset.row = c.row;
  if (c.warnings.length) tile.classList.add("warned");
  if (c.changed && state.version > 1) tile.classList.add("changed");
  const sides = el("div", "sides");
  sides.appendChild(side(c.front, c.back ? "front" : "", PX_PER_MM));
  if (c.back) sides.appendChild(side(c.back, "back", PX_PER_MM));
  tile.appendChild(sides);
  const wide = Array.from(sides.querySelectorAll("svg")).reduce((w, n) => w + (parseFloat(n.style.width) || 0), 0);
  tile.style.width = Math.max(MIN_TILE_PX, wide + 6 * (sides.children.length - 1) + 18) + "px";
  const cap = el("div", "caption");
  cap.appendChild(el("div", "name", c.name));
  cap.appendChild(el("div", "where", `${c.id} · ${c.sheet} row ${c.row} · ×${c.count}`));
  tile.appendChild(cap);
  if (c.warnings.length || c.notes.length) {
    const badges = el("div", "badges");
    if (c.warnings.length) {
      const b = el("span", "badge warn", "⚠ " + c.warnings.length);
      b.title = c.warnings.join("\n"); badges.appendChild(b);
    }
    if (c.notes.length) {
      const b = el("span", "badge note", "↘ " + c.notes.length);
      b.title = c.notes.join("\n"); badges.appendChild(b);
    }
    tile.appendChild(badges);
  }
  if (c.warnings.length) {
    const ul = el("ul", "problems");
    for (const w of c.warnings) { const li = el("li", "", w); li.title = w; ul.appendChild(li); }
    tile.appendChild(ul);
  }
  tile.addEventListener("click", () => openCard(c));
  return tile;
}

function render() {
  const s = state;
  const when = new Date(s.built_at * 1000).toLocaleTimeString();
  PAGE.when.textContent =
    s.errors.length ? `${when} · ${s.trigger} · ${plural(s.errors.length, "error")}` : `built ${when} in ${s.seconds.toFixed(2)} s · ${s.trigger}`;
  const errors = PAGE.errors;
  errors.style.display = s.errors.length ? "block" : "none";
  errors.querySelector("h2").textContent = `${plural(s.errors.length, "error")} in the data: nothing was built`;
  const eul = errors.querySelector("ul"); eul.replaceChildren();
  for (const e of s.errors) eul.appendChild(el("li", "", e));
  const general = PAGE.general;
  general.style.display = s.warnings.length ? "block" : "none";
  general.querySelector("summary").textContent =
    `${plural(s.warnings.length, "warning")} that belong${s.warnings.length === 1 ? "s" : ""} to no card`;
  const gul = general.querySelector("ul"); gul.replaceChildren();
  for (const w of s.warnings) gul.appendChild(el("li", "", w));
  const nav = PAGE.nav; nav.replaceChildren();
  const games = PAGE.games; games.replaceChildren();
  if (s.errors.length) return;
  if (!s.games.length) { games.appendChild(el("p", "empty", "No cards yet.")); return; }
  for (const g of s.games) {
    const a = el("a", "", g.title); a.href = "#game-" + g.slug; nav.appendChild(a);
    const sec = el("section", "game"); sec.id = "game-" + g.slug;
    sec.appendChild(el("h2", "", g.title));
    sec.appendChild(el("div", "files", g.files.map(f => f.split("/").pop()).join(" · ") + ` · ${g.seconds.toFixed(2)} s`));
    for (const d of g.decks) {
      const deck = el("section", "deck"); deck.dataset.deck = d.name;
      const h = el("h3", "", d.label);
      const copies = d.cards.reduce((n, c) => n + c.count, 0);
      const warned = d.cards.filter(c => c.warnings.length).length;
      h.appendChild(el("small", "", `${plural(d.cards.length, "design")} · ${plural(copies, "component")}` + (warned ? ` · ${warned} with warnings` : "")));
      deck.appendChild(h);
      const grid = el("div", "grid");
      for (const c of d.cards) grid.appendChild(cardTile(c));
      deck.appendChild(grid);
      sec.appendChild(deck);
    }
    games.appendChild(sec);
  }
}

function openCard(c) {
  const modal = PAGE.modal;
  const big = modal.querySelector(".big"); big.replaceChildren();
  big.appendChild(side(c.front, "front"));
  if (c.back) big.appendChild(side(c.back, "back"));
  const info = modal.querySelector(".info"); info.replaceChildren();
  info.appendChild(el("h2", "", c.name));
  info.appendChild(el("div", "where", `${c.deck_label} · ${c.id} · ${c.sheet} row ${c.row}`));
  const table = el("table", "values");
  for (const [k, v] of c.values) {
    const tr = el("tr"); tr.appendChild(el("th", "", k)); tr.appendChild(el("td", "", v)); table.appendChild(tr);
  }
  info.appendChild(table);
  if (c.warnings.length) {
    info.appendChild(el("h3", "", "Warnings"));
    const ul = el("ul", "warnlist"); for (const w of c.warnings) ul.appendChild(el("li", "", w)); info.appendChild(ul);
  }
  if (c.notes.length) {
    info.appendChild(el("h3", "", "Text shrunk to fit"));
    const ul = el("ul", "notelist"); for (const n of c.notes) ul.appendChild(el("li", "", n)); info.appendChild(ul);
  }
  modal.classList.add("open");
}

function closeCard() { PAGE.modal.classList.remove("open"); }
PAGE.close.addEventListener("click", closeCard);
PAGE.modal.addEventListener("click", e => { if (e.target === PAGE.modal) closeCard(); });
document.addEventListener("keydown", e => { if (e.key === "Escape") closeCard(); });

async function refresh() {
  if (loading) { again = true; return; }
  loading = true;
  try {
    do {
      again = false;
      const r = await fetch("/api/state", {cache: "no-store"});
      const s = await r.json();
      const keys = [];
      for (const g of s.games) for (const d of g.decks) for (const c of d.cards) keys.push(c.front, c.back);
      await fetchSvgs(keys);
      const y = window.scrollY;
      state = s; render(); window.scrollTo(0, y);
      document.body.dataset.version = s.version;
      document.body.dataset.drawn = String(++drawn);  // how many times the page was drawn
    } while (again);
  } finally { loading = false; }
}

function connect() {
  const dot = PAGE.dot;
  const source = new EventSource("/events");
  // the stream opens with the version built last: on the page's first connection that is the build
  // just drawn (after a reconnection, the server may be a new one whose numbers start again: draw it)
  let opens = 0, mayBeShown = false;
  source.addEventListener("open", () => { dot.className = "live"; mayBeShown = opens++ === 0; });
  source.addEventListener("build", e => {
    const shown = mayBeShown;
    mayBeShown = false;
    let version = null;
    try { version = JSON.parse(e.data).version; } catch (err) { version = null; }
    if (shown && state && version === state.version && !loading) return;
    refresh();
  });
  source.addEventListener("error", () => { dot.className = "lost"; });
}
refresh().then(connect);
