// The small DOM helpers every page builds its elements with (the table page, the director's
// page, the public event page). It lives beside the table page's files (like reportform.js) so
// that the table page's offline copy holds it too.

// An element: `attrs` are its attributes (`on…` a listener, `text` its text, `true` a bare
// attribute; undefined, null and false none), `children` nodes or text, nested lists flattened.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false)
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// The attribute the browser tests find an element by.
export const tid = (id) => ({ "data-testid": id });
