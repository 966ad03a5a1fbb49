// @ts-check
// The tools' tabs. On a narrow screen (a phone) the tools sit below the board: a tab bar shows
// one group at a time (moves, analysis, records, set-up, settings), so the page stays short and
// the board keeps its place. On a wide screen the tab bar is hidden and every group shows beside
// the board, as one panel. The tab chosen is remembered. Keys as the ARIA tabs pattern has them:
// ←/→ (and Home/End) move along the tabs and show the tab reached.

/** When the tabs show: the same query as style.css's tab rules (its 820-px breakpoint). */
const NARROW = '(max-width: 819.98px)';

const KEY = 'qi-xq-tab';

/**
 * Wires the tablist `bar`: its tabs name their panels by aria-controls.
 * @param {HTMLElement} bar
 */
export function wireTabs(bar) {
  const tabs = /** @type {HTMLElement[]} */ ([...bar.querySelectorAll('[role="tab"]')]);
  /** @param {HTMLElement} tab */
  const panelOf = (tab) => /** @type {HTMLElement} */ (document.getElementById(/** @type {string} */ (tab.getAttribute('aria-controls'))));
  const narrow = matchMedia(NARROW);

  /**
   * Shows `tab`'s panel only (while the tabs show; style.css hides `.tab-off` then).
   * @param {HTMLElement} tab
   */
  const select = (tab) => {
    for (const other of tabs) {
      const on = other === tab;
      other.setAttribute('aria-selected', String(on));
      other.tabIndex = on ? 0 : -1;
      panelOf(other).classList.toggle('tab-off', !on);
    }
    // A panel that is one <details> (the settings) is opened with its tab: no second tap.
    const details = panelOf(tab).querySelector(':scope > details');
    if (details && narrow.matches) /** @type {HTMLDetailsElement} */ (details).open = true;
  };

  // The panels are tab panels only while the tabs show; beside the board they are plain groups.
  const roles = () => {
    for (const tab of tabs) {
      const panel = panelOf(tab);
      if (narrow.matches) {
        panel.setAttribute('role', 'tabpanel');
        panel.setAttribute('aria-labelledby', tab.id);
        panel.tabIndex = 0;
      } else {
        for (const name of ['role', 'aria-labelledby', 'tabindex']) panel.removeAttribute(name);
      }
    }
    if (narrow.matches) select(tabs.find((t) => t.getAttribute('aria-selected') === 'true') || tabs[0]);
  };

  bar.addEventListener('click', (e) => {
    const tab = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[role="tab"]'));
    if (!tab) return;
    select(tab);
    localStorage.setItem(KEY, /** @type {string} */ (tab.dataset.tab));
  });
  bar.addEventListener('keydown', (e) => {
    const at = tabs.indexOf(/** @type {HTMLElement} */ (e.target));
    if (at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    const n = tabs.length;
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: (at + n - 1) % n, ArrowRight: (at + 1) % n, Home: 0, End: n - 1 };
    if (!(e.key in moves)) return;
    // The page's own arrow keys walk the game (keys.js): not from here.
    e.preventDefault();
    e.stopPropagation();
    const tab = tabs[moves[e.key]];
    tab.click();
    tab.focus();
  });

  const kept = tabs.find((t) => t.dataset.tab === localStorage.getItem(KEY));
  select(kept || tabs[0]);
  roles();
  narrow.addEventListener('change', roles);
}
