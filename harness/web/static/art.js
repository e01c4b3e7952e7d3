// The table's pictures, drawn by the project as inline SVG: a portrait for each of the 16
// characters, a face for each of the 22 cards, the page's icons and the reactions.  One shared
// palette; no fonts with pictures are needed and nothing is fetched.  The markup below is
// constant (no text from the game or a player goes into it: names are set as textContent).
"use strict";

const ART = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const P = {
    ink: "#2b1d0e", cream: "#fffaf0", sand: "#e9d8b4", tan: "#c9a46c", leather: "#8a5a2b",
    brown: "#5a3d1f", red: "#a0401c", wine: "#7a2315", gold: "#d9a21b", teal: "#2f6f6a",
    navy: "#2f3e5c", steel: "#7d8a92", green: "#4f7a3a", plum: "#5b3a5e", sky: "#9cc3c9",
    skin1: "#eec39a", skin2: "#c98e62", skin3: "#8d5a3b", white: "#ffffff", grey: "#b9b2a6",
  };

  function svg(view, markup, cls, label) {
    const s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", view);
    s.setAttribute("class", cls);
    s.setAttribute("focusable", "false");
    if (label) { s.setAttribute("role", "img"); s.setAttribute("aria-label", label); }
    else s.setAttribute("aria-hidden", "true");
    s.innerHTML = markup;
    return s;
  }

  // ---------------------------------------------------------------- icons (24 × 24, currentColor)
  const ICONS = {
    bell: '<path d="M6 17h12l-1.6-2.2V10a4.4 4.4 0 0 0-8.8 0v4.8z" fill="currentColor"/><circle cx="12" cy="19.2" r="1.8" fill="currentColor"/><rect x="11" y="3.2" width="2" height="2.6" rx="1" fill="currentColor"/>',
    focus: '<path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
    book: '<path d="M3 5.5c3-1.2 6-1.2 9 .8v13c-3-2-6-2-9-.8zM21 5.5c-3-1.2-6-1.2-9 .8v13c3-2 6-2 9-.8z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>',
    person: '<circle cx="12" cy="8" r="4" fill="currentColor"/><path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7z" fill="currentColor"/>',
    bot: '<rect x="4" y="7" width="16" height="12" rx="3" fill="currentColor"/><rect x="11" y="2.5" width="2" height="4.5" fill="currentColor"/><circle cx="12" cy="2.8" r="1.6" fill="currentColor"/><circle cx="9" cy="12.5" r="1.8" fill="#fffaf0"/><circle cx="15" cy="12.5" r="1.8" fill="#fffaf0"/><rect x="8.5" y="15.8" width="7" height="1.4" rx=".7" fill="#fffaf0"/>',
    model: '<rect x="6" y="6" width="12" height="12" rx="2" fill="currentColor"/><path d="M9 3v3M12 3v3M15 3v3M9 18v3M12 18v3M15 18v3M3 9h3M3 12h3M3 15h3M18 9h3M18 12h3M18 15h3" stroke="currentColor" stroke-width="1.6"/><path d="M9.5 14.5l1.6-5h1.8l1.6 5M10.2 12.6h3.6" fill="none" stroke="#fffaf0" stroke-width="1.3"/>',
    heart: '<path d="M12 20.5S3 15 3 9a4.5 4.5 0 0 1 9-1.3A4.5 4.5 0 0 1 21 9c0 6-9 11.5-9 11.5z" fill="currentColor"/>',
    cards: '<rect x="3" y="5" width="11" height="15" rx="2" fill="none" stroke="currentColor" stroke-width="1.8" transform="rotate(-10 8.5 12.5)"/><rect x="9" y="4" width="11" height="15" rx="2" fill="currentColor"/><path d="M12 8l5 7M17 8l-5 7" stroke="#fffaf0" stroke-width="1.2"/>',
    distance: '<path d="M3 12h18M7 8l-4 4 4 4M17 8l4 4-4 4" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    range: '<circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" stroke-width="1.8"/><circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" stroke-width="1.8"/><circle cx="12" cy="12" r="1.3" fill="currentColor"/><path d="M12 1.5v4M12 18.5v4M1.5 12h4M18.5 12h4" stroke="currentColor" stroke-width="1.8"/>',
    star: '<path d="M12 2.5l2.9 6.2 6.6.7-5 4.5 1.4 6.6L12 17.1l-5.9 3.4 1.4-6.6-5-4.5 6.6-.7z" fill="currentColor"/>',
    sun: '<circle cx="12" cy="12" r="4.5" fill="currentColor"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
    blast: '<path d="M12 1.5l2 5.5 5-3-2 5.5 5.5 1-4.5 3.5 4 4-5.5-.5.5 5.5-4-3.5-2.5 5-1.5-5.5-5 2.5 2.5-5L1.5 13l5-2.5-3.5-4.5 5.5 1z" fill="#d9a21b" stroke="#a0401c" stroke-width="1.2" stroke-linejoin="round"/><circle cx="12" cy="12" r="3" fill="#a0401c"/>',
    clock: '<circle cx="12" cy="13" r="8" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 13V8.5M12 13l3 2M10 2.5h4M19 5.5l1.5 1.5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
    skull: '<path d="M12 3a8 8 0 0 0-8 8c0 2.6 1.2 4.4 3 5.5V20h10v-3.5c1.8-1.1 3-2.9 3-5.5a8 8 0 0 0-8-8z" fill="currentColor"/><circle cx="9" cy="11.5" r="2" fill="#fffaf0"/><circle cx="15" cy="11.5" r="2" fill="#fffaf0"/><path d="M10 17.5v2.5M14 17.5v2.5" stroke="#fffaf0" stroke-width="1.2"/>',
  };
  // Text from the server with its pictographs (U+1F4A5 blast, U+23F1 clock) drawn as icons.
  const IN_TEXT = {"\u{1F4A5}": "blast", "\u23F1": "clock"};
  function withIcons(text) {
    const out = [];
    for (const part of String(text).split(/(\u{1F4A5}|\u23F1)\uFE0F?/u)) {
      if (IN_TEXT[part]) out.push(icon(IN_TEXT[part], ""));
      else if (part) out.push(part);
    }
    return out;
  }
  function icon(name, label) {
    return svg("0 0 24 24", ICONS[name] || "", "icon icon-" + name, label);
  }

  // ---------------------------------------------------------------- reactions (24 × 24)
  const face = (mouth, eyes, extra) =>
    `<circle cx="12" cy="12" r="10" fill="${P.gold}" stroke="${P.ink}" stroke-width="1.2"/>${eyes}${mouth}${extra || ""}`;
  const dotEyes = `<circle cx="8.5" cy="10" r="1.4" fill="${P.ink}"/><circle cx="15.5" cy="10" r="1.4" fill="${P.ink}"/>`;
  const REACTIONS = {
    like: `<path d="M7 11h3l3.5-6.5c1.6 0 2.5 1.2 2 3L15 10h4.2c1.2 0 2 1.1 1.7 2.2l-1.7 6.4c-.3 1-1.1 1.4-2 1.4H10l-3-1z" fill="${P.gold}" stroke="${P.ink}" stroke-width="1.2" stroke-linejoin="round"/><rect x="3" y="10" width="4" height="10.5" rx="1" fill="${P.red}" stroke="${P.ink}" stroke-width="1.2"/>`,
    funny: face(`<path d="M6.5 13h11a5.5 5.5 0 0 1-11 0z" fill="${P.ink}"/><path d="M8.5 16.2h7a4 4 0 0 1-7 0z" fill="${P.red}"/>`,
      `<path d="M6.5 10l2.5-1.5 2.5 1.5M12.5 10l2.5-1.5 2.5 1.5" fill="none" stroke="${P.ink}" stroke-width="1.4" stroke-linecap="round"/>`,
      `<path d="M4.5 11.5c-.8 1.3-.8 2.5 0 3.2M19.5 11.5c.8 1.3.8 2.5 0 3.2" stroke="${P.sky}" stroke-width="1.5" fill="none"/>`),
    angry: face(`<path d="M8 17c2.5-2 5.5-2 8 0" fill="none" stroke="${P.ink}" stroke-width="1.6" stroke-linecap="round"/>`,
      dotEyes + `<path d="M6.5 7l4 1.8M17.5 7l-4 1.8" stroke="${P.ink}" stroke-width="1.6" stroke-linecap="round"/>`)
      .replace(P.gold, "#e07a3c"),
    scared: face(`<ellipse cx="12" cy="16.5" rx="2.4" ry="3" fill="${P.ink}"/>`,
      `<circle cx="8.5" cy="10" r="2.3" fill="${P.white}" stroke="${P.ink}"/><circle cx="15.5" cy="10" r="2.3" fill="${P.white}" stroke="${P.ink}"/><circle cx="8.5" cy="10" r=".9" fill="${P.ink}"/><circle cx="15.5" cy="10" r=".9" fill="${P.ink}"/>`,
      `<path d="M5 3.5l1.5 2.5M12 1.8v2.6M19 3.5l-1.5 2.5" stroke="${P.sky}" stroke-width="1.4"/>`).replace(P.gold, "#b9c7d6"),
    deal: `<path d="M2 10l5-4 4 2 3-2 3 1 5 3v6l-3 1-5 4-4-3-3 1-5-4z" fill="${P.skin1}" stroke="${P.ink}" stroke-width="1.2" stroke-linejoin="round"/><path d="M9 12l3-2 6 5M11 15l3 2.5M8 16.5l2.5 2" fill="none" stroke="${P.ink}" stroke-width="1.2" stroke-linecap="round"/><rect x="0.5" y="8" width="3" height="9" fill="${P.red}"/><rect x="20.5" y="8" width="3" height="9" fill="${P.navy}"/>`,
    suspect: face(`<path d="M9 16.5h5" stroke="${P.ink}" stroke-width="1.6" stroke-linecap="round"/>`,
      `<circle cx="8.5" cy="10.5" r="1.4" fill="${P.ink}"/><circle cx="15.5" cy="10" r="1.4" fill="${P.ink}"/><path d="M6.5 8.5l4-.6M13.5 6.8l4 1" stroke="${P.ink}" stroke-width="1.5" stroke-linecap="round"/>`,
      `<path d="M13 23c0-2 1-3 2.5-3.5l3-1c1-.3 1.5.7.8 1.4L17 21" fill="${P.skin2}" stroke="${P.ink}" stroke-width="1.1"/>`),
    gg: `<rect x="1.5" y="5" width="21" height="14" rx="4" fill="${P.teal}"/><path d="M10 9.5a3 3 0 1 0 0 5h1v-2.2H9.6M19 9.5a3 3 0 1 0 0 5h1v-2.2h-1.4" fill="none" stroke="${P.cream}" stroke-width="1.7" stroke-linecap="round" transform="translate(-2.3 0)"/>`,
  };
  function reaction(id, label) {
    return svg("0 0 24 24", REACTIONS[id] || REACTIONS.gg, "reaction reaction-" + id, label || id);
  }

  // ---------------------------------------------------------------- portraits (64 × 64)
  const HATS = {
    cowboy: (c, band) => `<path d="M21 22c0-10 4-14 11-14s11 4 11 14z" fill="${c}"/><path d="M32 9c-2 0-3 2-3 5" stroke="${P.ink}" stroke-opacity=".25" stroke-width="1.5" fill="none"/><rect x="21" y="18" width="22" height="4" fill="${band}"/><ellipse cx="32" cy="22.5" rx="21" ry="4" fill="${c}"/><path d="M11 22.5c4 3 38 3 42 0" stroke="${P.ink}" stroke-opacity=".3" fill="none"/>`,
    top: (c, band) => `<rect x="23" y="3" width="18" height="18" rx="1.5" fill="${c}"/><rect x="23" y="16" width="18" height="3.5" fill="${band}"/><ellipse cx="32" cy="21.5" rx="15" ry="3.2" fill="${c}"/>`,
    bowler: (c, band) => `<path d="M21.5 21a10.5 11 0 0 1 21 0z" fill="${c}"/><rect x="21.5" y="18" width="21" height="3" fill="${band}"/><ellipse cx="32" cy="21.5" rx="14.5" ry="3" fill="${c}"/>`,
  };
  const base = (bg, coat, skin) =>
    `<rect width="64" height="64" rx="10" fill="${bg}"/>` +
    `<path d="M6 64c1-13 12-19 26-19s25 6 26 19z" fill="${coat}"/>` +
    `<path d="M27 45l5 7 5-7" fill="${P.cream}" opacity=".9"/>` +
    `<rect x="28" y="39" width="8" height="8" fill="${skin}"/>` +
    `<ellipse cx="32" cy="32" rx="11" ry="13" fill="${skin}"/>` +
    `<ellipse cx="21.3" cy="32.5" rx="2" ry="3" fill="${skin}"/><ellipse cx="42.7" cy="32.5" rx="2" ry="3" fill="${skin}"/>`;
  const eyes = (y = 31, r = 1.4) =>
    `<circle cx="27.5" cy="${y}" r="${r}" fill="${P.ink}"/><circle cx="36.5" cy="${y}" r="${r}" fill="${P.ink}"/>`;
  const brows = (c = P.ink, tilt = 0) =>
    `<path d="M25 ${27.5 - tilt}l5 ${tilt}M39 ${27.5 - tilt}l-5 ${tilt}" stroke="${c}" stroke-width="1.6" stroke-linecap="round"/>`;
  const nose = (c) => `<path d="M32 31v5h-2" fill="none" stroke="${c}" stroke-width="1.2" stroke-linecap="round"/>`;
  const smile = `<path d="M28.5 39.5c2 1.5 5 1.5 7 0" fill="none" stroke="${P.ink}" stroke-width="1.3" stroke-linecap="round"/>`;
  const flat = `<path d="M29 40h6" stroke="${P.ink}" stroke-width="1.3" stroke-linecap="round"/>`;
  const moustache = (c) => `<path d="M25.5 39c2-3 4.5-3 6.5-1.5 2-1.5 4.5-1.5 6.5 1.5-2.5 0-4.5-.5-6.5-.2-2-.3-4 .2-6.5.2z" fill="${c}"/>`;
  const beard = (c) => `<path d="M21.5 34c0 9 4.5 12 10.5 12s10.5-3 10.5-12c-2 4-5 5-10.5 5S23.5 38 21.5 34z" fill="${c}"/>`;
  const spots = `<g fill="${P.brown}"><circle cx="26" cy="14" r="1.6"/><circle cx="31" cy="11" r="1.3"/><circle cx="36" cy="15" r="1.7"/><circle cx="40" cy="19" r="1.2"/><circle cx="24" cy="19" r="1.2"/><circle cx="16" cy="23" r="1.1"/><circle cx="48" cy="22.5" r="1.1"/></g>`;

  const PORTRAITS = {
    stone_leopard: () => base(P.sand, P.leather, P.skin2) + eyes() + brows() + nose(P.skin3) + moustache(P.brown) + flat +
      HATS.cowboy(P.gold, P.brown) + spots,
    red_suit: () => base("#f1d7c4", P.red, P.skin1) + `<path d="M27 45l5 9 5-9" fill="${P.cream}"/><path d="M30.5 47h3l-1.5 4z" fill="${P.ink}"/>` +
      eyes() + brows() + nose(P.skin2) + moustache(P.ink) + HATS.bowler(P.ink, P.red),
    two_face: () => base("#d8d0c4", P.navy, P.skin1) +
      `<path d="M32 19a11 13 0 0 1 0 26z" fill="${P.skin3}"/><ellipse cx="42.7" cy="32.5" rx="2" ry="3" fill="${P.skin3}"/>` +
      `<circle cx="27.5" cy="31" r="1.4" fill="${P.ink}"/><path d="M35 29.5l3 3M38 29.5l-3 3" stroke="${P.cream}" stroke-width="1.4"/>` +
      `<path d="M28 40c1.5 1 3 1 4 .5" stroke="${P.ink}" stroke-width="1.3" fill="none"/><path d="M32 40.5l4-1.5" stroke="${P.cream}" stroke-width="1.3"/>` +
      `<path d="M21 22c0-10 4-14 11-14v14z" fill="${P.cream}"/><path d="M32 8c7 0 11 4 11 14H32z" fill="${P.ink}"/><path d="M11 22.5h21v3.5c-10 0-18-1-21-3.5z" fill="${P.cream}"/><path d="M32 22.5h21c-3 2.5-11 3.5-21 3.5z" fill="${P.ink}"/>`,
    collector: () => base("#cfe0d2", P.green, P.skin1) + eyes() + brows() + nose(P.skin2) + smile +
      `<circle cx="36.5" cy="31" r="3.6" fill="${P.sky}" fill-opacity=".35" stroke="${P.gold}" stroke-width="1.3"/><path d="M40 32.5c2 4 1 8-2 12" stroke="${P.gold}" fill="none" stroke-width=".9"/>` +
      HATS.top(P.ink, P.green) + `<circle cx="44" cy="55" r="4" fill="${P.gold}" stroke="${P.brown}"/><path d="M42.3 55h3.4M44 53.2v3.6" stroke="${P.brown}" stroke-width=".8"/>`,
    grip: () => base("#e3d2b5", P.brown, P.skin2) + eyes(31, 1.3) + brows(P.ink, 1) + nose(P.skin3) + flat +
      `<g fill="${P.ink}" opacity=".25"><circle cx="28" cy="41" r=".5"/><circle cx="31" cy="42.5" r=".5"/><circle cx="34" cy="42" r=".5"/><circle cx="36.5" cy="41" r=".5"/></g>` +
      HATS.cowboy(P.leather, P.ink) +
      `<path d="M41 64V52c0-3 2-4.5 4.5-4.5h6c2.5 0 4.5 2 4.5 4.5V64z" fill="${P.skin2}" stroke="${P.ink}" stroke-width="1.2"/><path d="M45 47.5v5M48.5 47.5v5M52 48v4.5" stroke="${P.ink}" stroke-width="1.1"/><path d="M41 55c2-1 4-1 6 1" fill="none" stroke="${P.ink}" stroke-width="1.2"/>`,
    iron_brow: () => base("#d5dadc", P.steel, P.skin2) + eyes(32) + nose(P.skin3) + beard(P.brown) + flat +
      `<rect x="21" y="23" width="22" height="6" rx="2" fill="${P.steel}" stroke="${P.ink}" stroke-width="1"/><g fill="${P.ink}"><circle cx="24" cy="26" r=".9"/><circle cx="32" cy="26" r=".9"/><circle cx="40" cy="26" r=".9"/></g>` +
      `<path d="M21.5 23c0-6 4-10 10.5-10s10.5 4 10.5 10z" fill="${P.brown}"/>`,
    three_eyes: () => base("#dcd0e6", P.plum, P.skin1) + eyes() + brows() + nose(P.skin2) + smile +
      `<path d="M28 24.5c2.5-3 5.5-3 8 0-2.5 3-5.5 3-8 0z" fill="${P.white}" stroke="${P.ink}" stroke-width="1"/><circle cx="32" cy="24.5" r="1.5" fill="${P.plum}"/>` +
      `<path d="M21 22c1-7 5-10 11-10s10 3 11 10c-3-3-7-4-11-4s-8 1-11 4z" fill="${P.ink}"/>`,
    lucky: () => base("#d6e6c9", P.green, P.skin1) + eyes() + brows() + nose(P.skin2) + smile +
      `<path d="M26 36.5l1.5-.5M37 36.5l-1.5-.5" stroke="${P.red}" stroke-opacity=".5" stroke-width="1.5"/>` +
      HATS.cowboy(P.tan, P.green) +
      `<path d="M28.5 10.5a3.5 3.5 0 1 1 7 0v5h-2v-5a1.5 1.5 0 0 0-3 0v5h-2z" fill="${P.steel}" stroke="${P.ink}" stroke-width=".8"/>`,
    pass_shadow: () => `<rect width="64" height="64" rx="10" fill="${P.navy}"/>` +
      `<path d="M6 64c1-13 12-19 26-19s25 6 26 19z" fill="#1c2233"/>` +
      `<path d="M17 46c-2-20 5-36 15-36s17 16 15 36c-4-3-9-4-15-4s-11 1-15 4z" fill="#1c2233"/>` +
      `<ellipse cx="32" cy="33" rx="10" ry="12" fill="#0f1320"/>` +
      `<path d="M26 31.5c1-1.2 2.6-1.2 3.5 0M34.5 31.5c1-1.2 2.6-1.2 3.5 0" stroke="${P.gold}" stroke-width="1.6" stroke-linecap="round" fill="none"/>` +
      `<path d="M12 58l8-6M52 58l-8-6" stroke="${P.sky}" stroke-opacity=".35" stroke-width="1.5"/>`,
    vulture_jr: () => base("#ead9c0", P.ink, P.skin1) +
      `<path d="M9 58c3-10 11-14 23-14s20 4 23 14l-6-3-4 4-4-5-4 5-5-5-5 5-4-5-4 4z" fill="#3d3230"/>` +
      eyes(30, 1.6) + `<path d="M24.5 26.5l6 1.5M39.5 26.5l-6 1.5" stroke="${P.ink}" stroke-width="1.4"/>` +
      `<path d="M32 30c-1 3-3.5 6-1.5 8.5 1.5 1 3.5.5 4-1" fill="${P.skin2}" stroke="${P.ink}" stroke-width="1"/>` + flat +
      `<path d="M28 19.5c-1-2 0-4 1.5-4M32 19c0-2.5 1-4 2.5-4.5M36 20c1-1.8 2.5-2.5 4-2" stroke="${P.ink}" stroke-width="1" fill="none"/>`,
    eagle_eye: () => base("#f3deb0", P.tan, P.skin2) +
      `<circle cx="27.5" cy="31" r="1.4" fill="${P.ink}"/><path d="M34 31h5" stroke="${P.ink}" stroke-width="1.6" stroke-linecap="round"/>` +
      brows(P.ink, 1) + nose(P.skin3) + flat + HATS.cowboy(P.brown, P.red) +
      `<path d="M40 20c4-6 9-10 13-11-2 4-5 9-11 12z" fill="${P.cream}" stroke="${P.ink}" stroke-width=".9"/><path d="M41 20.5l10-10" stroke="${P.ink}" stroke-width=".7"/><path d="M50.5 10c1 1.5 1.5 2.5 2.5 2" fill="none" stroke="${P.red}" stroke-width="1.5"/>`,
    bonesetter: () => base("#e3eef0", P.cream, P.skin1) +
      `<path d="M6 64c1-13 12-19 26-19s25 6 26 19z" fill="${P.cream}" stroke="${P.grey}"/><path d="M27 45l5 7 5-7" fill="${P.sky}"/>` +
      eyes() + `<circle cx="27.5" cy="31" r="3.2" fill="none" stroke="${P.ink}" stroke-width="1"/><circle cx="36.5" cy="31" r="3.2" fill="none" stroke="${P.ink}" stroke-width="1"/><path d="M30.7 31h2.6" stroke="${P.ink}"/>` +
      nose(P.skin2) + smile + moustache(P.grey) + HATS.bowler(P.grey, P.ink) +
      `<rect x="11" y="52" width="10" height="8" rx="1.5" fill="${P.wine}"/><path d="M16 53.5v5M13.5 56h5" stroke="${P.cream}" stroke-width="1.6"/>`,
    double_barrel: () => `<rect width="64" height="64" rx="10" fill="#efd2b2"/>` +
      `<path d="M6 8l20 26M58 8L38 34" stroke="${P.ink}" stroke-width="4" stroke-linecap="round"/><path d="M6 8l20 26M58 8L38 34" stroke="${P.steel}" stroke-width="1.5"/>` +
      base("none", P.brown, P.skin2).replace('<rect width="64" height="64" rx="10" fill="none"/>', "") +
      `<path d="M14 52l36 10" stroke="${P.leather}" stroke-width="4"/><g fill="${P.gold}"><rect x="20" y="52" width="2" height="4"/><rect x="26" y="54" width="2" height="4"/><rect x="32" y="55.5" width="2" height="4"/><rect x="38" y="57" width="2" height="4"/></g>` +
      eyes() + brows(P.ink, 1.5) + nose(P.skin3) + moustache(P.ink) + HATS.cowboy(P.ink, P.red),
    empty_hands: () => base("#f0e3c6", P.teal, P.skin1) + eyes() + brows() + nose(P.skin2) + smile +
      `<path d="M21 24c0-7 5-11 11-11s11 4 11 11c-2-3-6-5-11-5s-9 2-11 5z" fill="${P.leather}"/>` +
      `<path d="M24 45l8 6 8-6" fill="${P.red}"/>` +
      `<g fill="${P.skin1}" stroke="${P.ink}" stroke-width="1"><path d="M6 64V50c0-1 2-1 2 0v-3c0-1 2-1 2 0v-1c0-1 2-1 2 0v1c0-1 2-1 2 0v10l2-3c1-1 2.5 0 2 1l-3 9z"/><path d="M58 64V50c0-1-2-1-2 0v-3c0-1-2-1-2 0v-1c0-1-2-1-2 0v1c0-1-2-1-2 0v10l-2-3c-1-1-2.5 0-2 1l3 9z"/></g>`,
    scavenger: () => base("#ddd3bf", "#6b5d45", P.skin2) +
      `<circle cx="27.5" cy="31" r="1.4" fill="${P.ink}"/><path d="M33 29h7v4.5c-2 1.5-5 1.5-7 0z" fill="${P.ink}"/><path d="M22 26l20 3" stroke="${P.ink}" stroke-width=".9"/>` +
      nose(P.skin3) + beard("#6e6150") + flat +
      `<path d="M21 22c0-9 4-13 11-13s11 4 11 13z" fill="#7c6a4f"/><path d="M10 22.5l4 3 4-2 6 3 6-2 6 3 6-2 6 2 6-3c-4-2-11-3-21-3s-17 1-21 1z" fill="#7c6a4f"/>` +
      `<rect x="34" y="12" width="5" height="5" fill="${P.tan}" stroke="${P.ink}" stroke-width=".7" stroke-dasharray="1 1"/><circle cx="26" cy="15" r="1.2" fill="${P.sand}"/>`,
    mad_dog: () => base("#f2c9b8", P.wine, P.skin2) +
      `<path d="M21 25l2-9 3 5 2-8 3 6 2-8 2 7 3-6 1 8 4-4-1 9c-3-3-7-4-11-4s-8 1-11 4z" fill="${P.ink}"/>` +
      `<circle cx="27.5" cy="31.5" r="1.6" fill="${P.red}"/><circle cx="36.5" cy="31.5" r="1.6" fill="${P.red}"/><circle cx="27.5" cy="31.5" r=".6" fill="${P.ink}"/><circle cx="36.5" cy="31.5" r=".6" fill="${P.ink}"/>` +
      `<path d="M24.5 26.5l6 3M39.5 26.5l-6 3" stroke="${P.ink}" stroke-width="1.8" stroke-linecap="round"/>` + nose(P.skin3) +
      `<path d="M27 38.5h10c0 3-2 4.5-5 4.5s-5-1.5-5-4.5z" fill="${P.ink}"/><path d="M28.5 38.5l1 2 1-2M33.5 38.5l1 2 1-2" fill="${P.white}"/>` +
      `<path d="M22 45c3 4 17 4 20 0l-2 8-8-3-8 3z" fill="${P.red}"/>`,
  };
  function portrait(character, label) {
    const draw = PORTRAITS[character];
    return svg("0 0 64 64", draw ? draw() : base(P.sand, P.leather, P.skin1) + eyes() + smile, "portrait", label);
  }

  // ---------------------------------------------------------------- card pictograms (48 × 48)
  // A gun pointing left: barrel(s) of ``len``, a grip or a stock, and one red pip per range step.
  const gun = (len, barrels, stock, color, range) => {
    const bx = 30 - len;
    let g = "";
    for (let i = 0; i < barrels; i++) g += `<rect x="${bx}" y="${17 + i * 3.6}" width="${len + 2}" height="3.2" rx="1" fill="${color}" stroke="${P.ink}" stroke-width=".5"/>`;
    g += `<rect x="30" y="16" width="10" height="9" rx="1.5" fill="${P.brown}"/>`;
    g += stock ? `<path d="M39 17l8 2v11l-8-4z" fill="${P.leather}" stroke="${P.ink}" stroke-width=".6"/>`
      : `<path d="M34 24h6l-2.5 12h-6z" fill="${P.leather}" stroke="${P.ink}" stroke-width=".6"/>`;
    g += `<path d="M31 25c0 4 2 5.5 4.5 5.5" fill="none" stroke="${P.ink}" stroke-width="1.3"/>`;
    for (let k = 0; k < range; k++) g += `<circle cx="${24 - (range - 1) * 3.5 + k * 7}" cy="42" r="2.3" fill="${P.red}"/>`;
    return g;
  };
  const PICTOS = {
    shot: `<path d="M4 17h16c6 0 11 3 13 7-2 4-7 7-13 7H4z" fill="${P.gold}" stroke="${P.ink}" stroke-width="1.2"/><path d="M20 17c6 0 11 3 13 7-2 4-7 7-13 7z" fill="${P.wine}"/><path d="M8 17v14M12 17v14" stroke="${P.brown}" stroke-width="1"/><path d="M36 24h9M34 16l7-4M34 32l7 4" stroke="${P.red}" stroke-width="2" stroke-linecap="round"/>`,
    ricochet: `<rect x="36" y="6" width="6" height="36" fill="${P.tan}" stroke="${P.ink}"/><path d="M6 12l28 12L8 40" fill="none" stroke="${P.red}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><path d="M8 40l1-6M8 40l6-1" stroke="${P.red}" stroke-width="3" stroke-linecap="round"/><path d="M33 19l-3-3M33 29l-3 3M34 24h-4" stroke="${P.gold}" stroke-width="1.5"/>`,
    flask: `<rect x="20" y="5" width="8" height="6" rx="1" fill="${P.leather}"/><path d="M19 11h10v4c6 2 9 6 9 12v11c0 3-2 5-5 5H15c-3 0-5-2-5-5V27c0-6 3-10 9-12z" fill="${P.sky}" stroke="${P.ink}" stroke-width="1.2"/><path d="M11 30h26v8c0 3-2 4-4 4H15c-2 0-4-1-4-4z" fill="${P.red}" opacity=".85"/><path d="M19 24h10M24 19v10" stroke="${P.cream}" stroke-width="3"/>`,
    snatch: `<rect x="24" y="8" width="14" height="20" rx="2" fill="${P.cream}" stroke="${P.ink}" transform="rotate(15 31 18)"/><path d="M8 40c0-8 3-13 8-15l4-8c1-2 3-1 3 1l-2 7 6-9c1-1.5 3-.5 2.5 1l-5 9 7-6c1.2-1 2.6.4 1.6 1.6L26 30l5-2c1.5-.5 2.5 1.2 1 2l-8 6c-3 2-8 5-8 10z" fill="${P.skin2}" stroke="${P.ink}" stroke-width="1.2" stroke-linejoin="round"/>`,
    knock_off: `<g transform="rotate(-25 24 22)"><path d="M14 26c0-9 4-13 10-13s10 4 10 13z" fill="${P.leather}"/><ellipse cx="24" cy="26.5" rx="17" ry="3.5" fill="${P.leather}"/><rect x="14" y="22" width="20" height="3" fill="${P.ink}"/></g><path d="M32 36l8 6M36 32l8 4M28 40l5 5" stroke="${P.red}" stroke-width="2" stroke-linecap="round"/>`,
    duel: `<g transform="rotate(-20 14 24)">${"<path d='M2 21h16v-2h4v7h-4l1 8h-5l-1-6H2z' fill='" + P.brown + "'/>"}</g><g transform="translate(48 0) scale(-1 1) rotate(-20 14 24)"><path d="M2 21h16v-2h4v7h-4l1 8h-5l-1-6H2z" fill="${P.ink}"/></g><path d="M24 6v8M20 10h8" stroke="${P.red}" stroke-width="2.5" stroke-linecap="round"/><path d="M18 40h12" stroke="${P.tan}" stroke-width="3" stroke-linecap="round"/>`,
    raid: [0, 1, 2].map((i) => `<g transform="translate(${i * 11 - 11} ${i % 2 ? 6 : 0})"><path d="M24 6v28" stroke="${P.brown}" stroke-width="2.5"/><path d="M19 10l5-7 5 7z" fill="${P.steel}"/><path d="M21 34l3-4 3 4v5l-3-3-3 3z" fill="${P.red}"/></g>`).join(""),
    wagon: `<circle cx="24" cy="24" r="17" fill="none" stroke="${P.leather}" stroke-width="4"/><circle cx="24" cy="24" r="4" fill="${P.brown}"/>` +
      [0, 30, 60, 90, 120, 150].map((a) => `<path d="M24 8v32" stroke="${P.leather}" stroke-width="2.2" transform="rotate(${a} 24 24)"/>`).join(""),
    bazaar: `<path d="M4 16l4-8h32l4 8z" fill="${P.cream}"/>` + [0, 1, 2, 3, 4].map((i) => `<path d="M${8 + i * 8} 8h4l-1 8h-6z" fill="${P.red}"/>`).join("") +
      `<path d="M4 16c0 3 5 3 5 0 0 3 5 3 5 0 0 3 5 3 5 0 0 3 5 3 5 0 0 3 5 3 5 0 0 3 5 3 5 0 0 3 5 3 5 0 0 3 5 3 5 0z" fill="${P.red}"/><path d="M7 19v23M41 19v23" stroke="${P.brown}" stroke-width="2"/><rect x="5" y="32" width="38" height="4" fill="${P.leather}"/><circle cx="15" cy="29.5" r="3" fill="${P.gold}"/><circle cx="23" cy="29.5" r="3" fill="${P.green}"/><circle cx="31" cy="29.5" r="3" fill="${P.red}"/>`,
    saloon: `<rect x="4" y="6" width="40" height="6" fill="${P.brown}"/><path d="M8 14h15v22H8zM25 14h15v22H25z" fill="${P.tan}" stroke="${P.brown}" stroke-width="2"/><path d="M11 18h9M11 22h9M11 26h9M11 30h9M28 18h9M28 22h9M28 26h9M28 30h9" stroke="${P.brown}" stroke-width="1.4"/><path d="M6 12v30M42 12v30" stroke="${P.brown}" stroke-width="2"/><path d="M19 40c0-3 2-4 5-4s5 1 5 4l-1 4h-8z" fill="${P.gold}" stroke="${P.ink}" stroke-width=".8"/>`,
    caravan: `<path d="M6 30V18c0-8 8-12 18-12s18 4 18 12v12z" fill="${P.cream}" stroke="${P.ink}" stroke-width="1.2"/><path d="M14 9v21M24 6v24M34 9v21" stroke="${P.tan}" stroke-width="1.4"/><rect x="4" y="29" width="40" height="5" fill="${P.leather}"/><circle cx="13" cy="38" r="6" fill="none" stroke="${P.brown}" stroke-width="2.5"/><circle cx="35" cy="38" r="6" fill="none" stroke="${P.brown}" stroke-width="2.5"/><path d="M13 32v12M7 38h12M35 32v12M29 38h12" stroke="${P.brown}" stroke-width="1.3"/>`,
    buckshot: `<path d="M4 21h12l3-3v12l-3-3H4z" fill="${P.steel}" stroke="${P.ink}"/><path d="M20 24l24-16M20 24h24M20 24l24 16" stroke="${P.gold}" stroke-width=".8" stroke-dasharray="2 2"/>` +
      [[30, 14], [36, 10], [42, 7], [30, 24], [37, 24], [44, 24], [30, 34], [36, 38], [42, 41], [33, 19], [33, 29], [40, 16], [40, 32]].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2" fill="${P.ink}"/>`).join(""),
    jail: `<rect x="6" y="6" width="36" height="36" rx="3" fill="${P.sand}" stroke="${P.ink}" stroke-width="1.5"/>` + [12, 19, 26, 33].map((x) => `<rect x="${x}" y="6" width="3.5" height="36" fill="${P.steel}" stroke="${P.ink}" stroke-width=".6"/>`).join("") +
      `<rect x="6" y="20" width="36" height="3.5" fill="${P.steel}" stroke="${P.ink}" stroke-width=".6"/><circle cx="38" cy="34" r="3" fill="${P.gold}"/>`,
    cover: `<ellipse cx="24" cy="10" rx="13" ry="4" fill="${P.brown}"/><path d="M11 10c-2 10-2 18 0 28h26c2-10 2-18 0-28z" fill="${P.leather}" stroke="${P.ink}" stroke-width="1"/><path d="M10.3 16h27.4M10.3 32h27.4" stroke="${P.steel}" stroke-width="2.5"/><path d="M18 11v27M30 11v27" stroke="${P.brown}" stroke-width=".8"/><ellipse cx="24" cy="38" rx="13" ry="3" fill="${P.brown}"/>`,
    horse: `<path d="M16 40V24c0-8 4-15 12-15 1-3 4-5 6-5l-1 5c3 2 6 7 7 12l-4 3-5-4-3 3v17z" fill="${P.leather}" stroke="${P.ink}" stroke-width="1.2" stroke-linejoin="round"/><path d="M28 9c-5 0-9 4-11 10 3-3 6-4 8-4z" fill="${P.brown}"/><circle cx="31" cy="14" r="1.3" fill="${P.ink}"/><path d="M12 44a6 6 0 0 1 0-8h4M36 44a6 6 0 0 0 0-8h-4" fill="none" stroke="${P.steel}" stroke-width="2.5"/>`,
    scope: `<circle cx="24" cy="24" r="16" fill="${P.sky}" fill-opacity=".35" stroke="${P.ink}" stroke-width="3"/><circle cx="24" cy="24" r="7" fill="none" stroke="${P.ink}" stroke-width="1.2"/><path d="M24 5v13M24 30v13M5 24h13M30 24h13" stroke="${P.ink}" stroke-width="1.6"/><circle cx="24" cy="24" r="1.6" fill="${P.red}"/>`,
    dynamite: [0, 1, 2].map((i) => `<rect x="${11 + i * 8}" y="18" width="8" height="24" rx="2" fill="${P.red}" stroke="${P.wine}"/>`).join("") +
      `<rect x="10" y="27" width="26" height="4" fill="${P.ink}"/><path d="M23 18c0-5 3-8 7-10" fill="none" stroke="${P.ink}" stroke-width="1.5"/><path d="M30 8l2-5 1 4 4-2-3 4 4 1-5 1 1 4-3-3z" fill="${P.gold}"/>`,
    volcanic: gun(16, 1, false, P.steel, 1) + `<path d="M10 16c-4-4-2-8 1-10 0 3 2 3 3 1 1 3 3 4 1 9" fill="${P.red}"/>`,
    sawed_off: gun(16, 2, true, P.ink, 2),
    rifle: gun(22, 1, true, P.steel, 3),
    carbine: gun(25, 1, true, P.tan, 4),
    long_rifle: gun(28, 1, true, P.ink, 5) + `<rect x="14" y="11" width="14" height="3.5" rx="1.7" fill="${P.ink}"/><path d="M18 14.5v2.5M24 14.5v2.5" stroke="${P.ink}"/>`,
  };
  const KIND = {
    jail: "blue", cover: "blue", horse: "blue", scope: "blue", dynamite: "blue",
    volcanic: "weapon", sawed_off: "weapon", rifle: "weapon", carbine: "weapon", long_rifle: "weapon",
  };
  const RANKS = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "10", J: "J", Q: "Q", K: "K", A: "A"};
  const SUITS = {S: "♠", H: "♥", D: "♦", C: "♣"};

  function pictogram(type, label) {
    return svg("0 0 48 48", PICTOS[type] || "", "picto picto-" + type, label);
  }
  // "shot.QH" → {type: "shot", rank: "Q", suit: "♥", red: true}
  function parseFace(face) {
    const [type, rs] = String(face).split(".");
    const m = /^(10|[2-9JQKA])([SHDC])$/.exec(rs || "");
    return m ? {type, rank: RANKS[m[1]], suit: SUITS[m[2]], red: m[2] === "H" || m[2] === "D"} : {type, rank: "", suit: "", red: false};
  }
  // "Shot ♥Q" → "Shot": a card's name is the server's label without its rank and suit.
  function faceName(face, label) {
    const f = parseFace(face), corner = f.suit + f.rank;
    return corner && label.endsWith(" " + corner) ? label.slice(0, -corner.length - 1) : label;
  }
  // A card's face: corner rank and suit, the pictogram, the card's name.  ``label`` is the
  // server's card label ("Shot ♥Q"); its name is the label without the rank and suit.  ``tag``:
  // the element of the face ("button" for a card one can act with; its parts are all phrasing).
  function cardFace(face, label, effect, tag) {
    const f = parseFace(face);
    const name = faceName(face, label);
    const box = document.createElement(tag || "div");
    if (tag === "button") box.type = "button";
    box.className = `card-face kind-${KIND[f.type] || "brown"}`;
    box.dataset.card = f.type;
    const top = document.createElement("span");
    top.className = "corner" + (f.red ? " red" : "");
    top.textContent = f.rank + f.suit;
    top.setAttribute("dir", "ltr");
    const nm = document.createElement("b");
    nm.className = "card-name";
    nm.textContent = name;
    box.append(top, pictogram(f.type), nm);
    if (effect) {
      const fx = document.createElement("span");
      fx.className = "effect";
      fx.textContent = effect;
      box.append(fx);
    }
    return box;
  }

  return {icon, withIcons, reaction, portrait, pictogram, cardFace, parseFace, faceName,
    characters: Object.keys(PORTRAITS), cards: Object.keys(PICTOS), reactions: Object.keys(REACTIONS)};
})();
