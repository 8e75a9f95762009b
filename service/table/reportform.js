// One deal's report as a form, built from the game's `reported_deal` in GET /v1/games (its
// fields in order, each with its kind, its words in the page's language, its allowed values, and
// the sides a number map is keyed by). The page knows no game's rules: a seat list is picked seat
// by seat in order, an enum chosen, a number given per side; the service scores the deal and
// refuses one the rules cannot produce with the path of the field at fault, shown at that field.
// Shared by the table page and the director's page (which loads it from /table/reportform.js).

const WORDS = {
  en: { none: "—", undo: "Undo", clear: "Clear", add_row: "Add a call", remove_row: "Remove the last call",
        optional: "optional", nobody: "nobody yet", row: "Call" },
  ja: { none: "—", undo: "1つ戻す", clear: "消す", add_row: "宣言を追加", remove_row: "最後の宣言を削除",
        optional: "省略可", nobody: "まだなし", row: "宣言" },
};

// The ids a number map of this deal is keyed by at a table of `seats`: the game's sides for
// that many players, else each seat's own id.
export function sidesOf(described, seats) {
  const listed = described.sides && described.sides[String(seats.length)];
  return listed && listed.length ? listed : seats.slice();
}

// The deal and the field a refusal's path names ("…reported.deals[2].order[1]" → {deal: 2,
// field: "order"}), or null when it names none.
export function fieldOfPath(path) {
  const m = /(?:^|\.)deals\[(\d+)\](?:\.([A-Za-z_][A-Za-z0-9_]*))?/.exec(String(path || ""));
  return m ? { deal: Number(m[1]), field: m[2] || null } : null;
}

// Each field's refusal messages of a problem answer (its `errors`, path -> messages), for deal
// `k`: {field: message}; a message naming the deal but no field under "" (shown over the form).
export function refusalsAt(problem, k) {
  const out = {};
  const errors = (problem && problem.errors) || {};
  for (const [path, messages] of Object.entries(errors)) {
    const at = fieldOfPath(path);
    if (!at || at.deal !== k) continue;
    const key = at.field || "";
    out[key] = [out[key], [].concat(messages).join(" ")].filter(Boolean).join(" ");
  }
  return out;
}

// The form of one deal. `h` is the page's element builder; `seats` the table's seat ids in seat
// order, `names` id -> the person's name; `value` a deal to edit (as sent before); `lang` "en" or
// "ja"; `testid` the page's data-testid maker. Returns {element, read(), showRefusals(byField)}.
export function reportedDealForm(h, described, { seats, names = {}, value = {}, lang = "en", testid }) {
  const w = WORDS[lang] || WORDS.en;
  const tid = testid || ((id) => ({ "data-testid": id }));
  const label = (id) => (names[id] ? `${names[id]} (${id})` : id);
  const readers = {};
  const slots = {};
  const rows = (described.fields || []).map((f) => {
    const widget = WIDGETS[f.type] || textWidget;
    const made = widget(h, f, { seats, label, value: value[f.name], w, tid, sides: sidesOf(described, seats) });
    readers[f.name] = made.read;
    slots[f.name] = h("p", { class: "field-refusal", role: "alert", hidden: true, ...tid(`rd-error-${f.name}`) });
    return h("div", { class: "reported-field", "data-field": f.name, ...tid(`rd-field-${f.name}`) },
      h("div", { class: "reported-label" }, h("strong", { text: f.name }),
        f.required === false ? h("span", { class: "desc", text: ` (${w.optional})` }) : null),
      f.description ? h("p", { class: "hint", text: f.description }) : null,
      made.element, slots[f.name]);
  });
  const general = h("p", { class: "field-refusal", role: "alert", hidden: true, ...tid("rd-error") });
  return {
    element: h("div", { class: "reported-deal", ...tid("reported-deal") }, general, rows),
    // The deal as sent: every required field, and an optional one only when given.
    read() {
      const deal = {};
      for (const f of described.fields || []) {
        const v = readers[f.name]();
        if (v !== undefined || f.required !== false) deal[f.name] = v === undefined ? null : v;
      }
      return deal;
    },
    showRefusals(byField = {}) {
      for (const [name, slot] of Object.entries(slots)) {
        slot.textContent = byField[name] || "";
        slot.hidden = !byField[name];
        slot.parentElement.classList.toggle("refused", Boolean(byField[name]));
      }
      const rest = Object.entries(byField).filter(([k]) => !(k in slots)).map(([k, v]) => (k ? `${k}: ${v}` : v));
      general.textContent = rest.join(" ");
      general.hidden = !rest.length;
    },
  };
}

function choice(h, options, current, attrs) {
  return h("select", attrs, options.map(([v, text]) => h("option", { value: v, selected: v === current }, text)));
}

function playerWidget(h, f, { seats, label, value, w, tid }) {
  const el = choice(h, [["", w.none], ...seats.map((s) => [s, label(s)])], value ?? "", tid(`rd-${f.name}`));
  return { element: el, read: () => el.value || undefined };
}

// Seats in order, each as often as it comes (a finishing order, each round's loser): a button
// per seat adds it at the end; undo takes the last one back.
function playerListWidget(h, f, { seats, label, value, w, tid }) {
  const picked = Array.isArray(value) ? value.slice() : [];
  const shown = h("ol", { class: "picked", ...tid(`rd-${f.name}-list`) });
  const draw = () => shown.replaceChildren(...(picked.length ? picked.map((s) => h("li", { text: label(s) }))
    : [h("li", { class: "desc", text: w.nobody })]));
  draw();
  const buttons = seats.map((s) => h("button", { type: "button", class: "small", ...tid(`rd-${f.name}-add-${s}`),
    onclick: () => { picked.push(s); draw(); } }, label(s)));
  const undo = h("button", { type: "button", class: "small", ...tid(`rd-${f.name}-undo`), onclick: () => { picked.pop(); draw(); } }, w.undo);
  return { element: h("div", { class: "seat-picker" }, shown, h("div", { class: "row" }, buttons, undo)),
           read: () => (picked.length || f.required !== false ? picked.slice() : undefined) };
}

function enumWidget(h, f, { value, w, tid }) {
  const allowed = (f.allowed || []).filter((v) => v !== null);
  const el = choice(h, [["", w.none], ...allowed.map((v) => [String(v), String(v)])], value == null ? "" : String(value), tid(`rd-${f.name}`));
  return { element: el, read: () => (el.value === "" ? undefined : allowed.find((v) => String(v) === el.value)) };
}

function boolWidget(h, f, { value, tid }) {
  const el = h("input", { type: "checkbox", checked: Boolean(value), ...tid(`rd-${f.name}`) });
  return { element: el, read: () => (el.checked ? true : undefined) };
}

// A number per side (the game's sides at this many players, else each seat).
function numberMapWidget(h, f, { value, label, tid, sides }) {
  const inputs = sides.map((side) => h("input", { type: "number", inputmode: "numeric", ...tid(`rd-${f.name}-${side}`),
    value: value && value[side] !== undefined ? String(value[side]) : "" }));
  const read = () => {
    const given = sides.map((side, i) => [side, inputs[i].value.trim()]).filter(([, v]) => v !== "");
    return given.length ? Object.fromEntries(given.map(([side, v]) => [side, Number(v)])) : undefined;
  };
  return { element: h("div", { class: "row" }, sides.map((side, i) => h("label", {}, label(side), " ", inputs[i]))), read };
}

// A list of rows, each a set of the allowed values (Man's calls, each with its kinds).
function choiceRowsWidget(h, f, { value, w, tid }) {
  const allowed = f.allowed || [];
  const rows = Array.isArray(value) ? value.map((r) => r.slice()) : [];
  const box = h("div", { ...tid(`rd-${f.name}-rows`) });
  const draw = () => box.replaceChildren(...rows.map((row, i) => h("div", { class: "row" }, `${w.row} ${i + 1}: `,
    allowed.map((v) => h("label", {}, h("input", { type: "checkbox", checked: row.includes(v), ...tid(`rd-${f.name}-${i}-${v}`),
      onchange: (ev) => { rows[i] = ev.target.checked ? [...row.filter((x) => x !== v), v] : row.filter((x) => x !== v); } }), ` ${v}`)))));
  draw();
  return {
    element: h("div", {}, box, h("div", { class: "row" },
      h("button", { type: "button", class: "small", ...tid(`rd-${f.name}-add`), onclick: () => { rows.push([]); draw(); } }, w.add_row),
      h("button", { type: "button", class: "small", ...tid(`rd-${f.name}-remove`), onclick: () => { rows.pop(); draw(); } }, w.remove_row))),
    read: () => (rows.length ? rows.map((r) => allowed.filter((v) => r.includes(v))) : undefined),
  };
}

// A kind this page has no picker for: its JSON typed in.
function textWidget(h, f, { value, tid }) {
  const el = h("input", { ...tid(`rd-${f.name}`), value: value === undefined ? "" : JSON.stringify(value) });
  return { element: el, read: () => { if (!el.value.trim()) return undefined; try { return JSON.parse(el.value); } catch { return el.value; } } };
}

const WIDGETS = { player: playerWidget, player_list: playerListWidget, enum: enumWidget, bool: boolWidget,
                  int_map: numberMapWidget, str_list_list: choiceRowsWidget };
