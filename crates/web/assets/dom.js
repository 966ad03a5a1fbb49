// @ts-check
// The few DOM helpers every page uses: look up by id, build SVG and HTML elements, copy text.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * The element with `id` (the pages' ids are fixed, so a missing one is a bug).
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * A new SVG element with `attrs`, appended to `parent` when given.
 * @param {string} name
 * @param {Record<string, string | number>} [attrs]
 * @param {Element | null} [parent]
 * @returns {any}
 */
export function svgEl(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/**
 * A new HTML element: `text` sets its text, `on…` adds a listener, other keys are attributes.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node | string)} children
 * @returns {any}
 */
export function htmlEl(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/**
 * Copies `text` to the clipboard; where that is refused, selects `input` (so the user can copy
 * it by hand) and tries the old copy command. Whether the text was copied.
 * @param {string} text
 * @param {HTMLInputElement | HTMLTextAreaElement | null} [input]
 * @returns {Promise<boolean>}
 */
export async function copyText(text, input = null) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) input.select();
    return !!(document.execCommand && document.execCommand('copy'));
  }
}
