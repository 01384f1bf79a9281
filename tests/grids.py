"""Text clipped by its column in a page's tables (issue 32's crawl).

``st.dataframe`` and ``st.data_editor`` are Glide Data Grid: a canvas, so neither the cells' text nor the
columns' widths are in the page. Both are read from the grid's own React props (the columns as the grid laid
them out, after sizing and stretching, and ``getCellContent``, which the grid draws from), and text is
measured with the grid's own fonts (``measureText`` on a canvas, as the grid measures it). A table is clipped:
- when its columns are wider than the space the page gives it: the last ones are cut at the edge
  ("Graved" for "Gravedad") and the reader must find the scrollbar;
- when a header, or any row's cell (every row, not only those scrolled into view), is wider than its column
  less the grid's padding; in a table whose rows are tall enough to wrap (``row_height`` over 4 rem), when
  the wrapped lines are taller than the row.
A table in a closed expander or a tab that is not showing has no layout: ``READ`` sees only the tables on
screen, so ``tables`` opens every expander, then each tab in turn.
"""

from __future__ import annotations

# A grid canvas's props as the grid draws from them (its columns laid out, getCellContent), or null.
GRID = """const gridOf = canvas => {
  let fiber = canvas[Object.keys(canvas).find(k => k.startsWith('__reactFiber'))];
  while (fiber && !(fiber.memoizedProps && Array.isArray(fiber.memoizedProps.columns))) fiber = fiber.return;
  return fiber ? fiber.memoizedProps : null;
};"""

# Whether every table on screen has been laid out: the page's script run over (the app says so on stApp: a
# table sent late in a run is not on screen yet when the run's first elements are), the grid's module loaded
# (no skeleton in its place), its canvas drawn, the fonts loaded and its column widths unchanged over 3 frames
# (the grid sizes its columns from a sample of rows one render after it first draws).
READY = (
    "() => {"
    + GRID
    + """
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.dataset.testScriptState !== 'notRunning' || document.fonts.status !== 'loaded') return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  const widths = [];
  for (const frame of document.querySelectorAll('[data-testid="stDataFrame"]')) {
    if (!frame.checkVisibility()) continue;
    const canvas = frame.querySelector('canvas[data-testid="data-grid-canvas"]');
    const grid = canvas && canvas.clientWidth && gridOf(canvas);
    if (!grid) return false;
    widths.push(canvas.clientWidth, ...grid.columns.map(c => c.width));
  }
  const key = widths.join(',');
  window.__gridFrames = window.__gridWidths === key ? (window.__gridFrames || 0) + 1 : 0;
  window.__gridWidths = key;
  return window.__gridFrames >= 3;
}"""
)

# Every table on screen: its width, its columns' widths, and each column's widest header and cell; null
# while one is not laid out (a rerun began after READY).
READ = (
    "() => {"
    + GRID
    + """
  const measure = document.createElement('canvas').getContext('2d');
  const width = (text, font) => { measure.font = font; return measure.measureText(text).width; };
  const wrapped = (text, room, font) => {  // lines of greedy word wrap, as the grid wraps
    let lines = 1, line = '';
    for (const word of text.split(/\\s+/)) {
      const next = line ? line + ' ' + word : word;
      if (width(next, font) <= room || !line) { line = next; continue; }
      lines += 1; line = word;
    }
    return lines + Math.floor(width(line, font) / room);
  };
  const fresh = f => f.checkVisibility() && !f.dataset.crawlRead;  // a table in a second tab bar is read once
  const frames = [...document.querySelectorAll('[data-testid="stDataFrame"]')].filter(fresh);
  const canvases = frames.map(frame => frame.querySelector('canvas[data-testid="data-grid-canvas"]'));
  const grids = canvases.map(canvas => canvas && canvas.clientWidth && gridOf(canvas));
  if (grids.some(grid => !grid)) return null;
  return frames.map((frame, at) => {
    frame.dataset.crawlRead = '1';
    const canvas = canvases[at], grid = grids[at], theme = grid.theme, pad = 2 * theme.cellHorizontalPadding;
    const rowHeight = typeof grid.rowHeight === 'number' ? grid.rowHeight : grid.rowHeight(0);
    const fontSize = parseFloat(theme.baseFontFull.match(/([\\d.]+)px/)[1]);
    const columns = grid.columns.map((column, index) => {
      const header = Math.ceil(width(column.title, theme.headerFontFull) + pad + (column.icon === undefined ? 0 : 28));
      let widest = 0, text = '', cut = 0;
      const texts = [];
      for (let row = 0; row < grid.rows; row++) {
        const cell = grid.getCellContent([index, row]);
        const shown = typeof cell.displayData === 'string' ? cell.displayData : cell.data;
        if (typeof shown !== 'string' || !shown) continue;
        texts.push(shown);
        let need = Math.ceil(width(shown, theme.baseFontFull) + pad);
        if (cell.allowWrapping) {
          const lines = wrapped(shown, column.width - pad, theme.baseFontFull);
          const tall = fontSize * (1 + theme.lineHeight * (lines - 1)) + theme.cellVerticalPadding;
          need = tall > rowHeight ? need : Math.min(need, column.width);
        }
        if (need > column.width) cut += 1;
        if (need > widest) { widest = need; text = shown; }
      }
      return {title: column.title, width: column.width, header, widest, text, cut, texts};
    });
    return {space: canvas.clientWidth, width: grid.columns.reduce((sum, c) => sum + c.width, 0), columns};
  });
}"""
)

TABS = '[data-testid="stTabs"] [role="tab"]'
CLOSED = '[data-testid="stExpander"] details:not([open]) > summary'


def clipped(table: dict) -> list[str]:
    """What of one table (as ``READ`` gives it) a reader sees cut, one line each."""
    found = []
    if table["width"] > table["space"] + 1:
        found.append(f"clipped: table {table['width']} px wide in {table['space']} px")
    for column in table["columns"]:
        if column["header"] > column["width"]:
            found.append(f"clipped: header {column['title']!r} needs {column['header']} px, has {column['width']}")
        if column["cut"]:
            found.append(
                f"clipped: {column['cut']} cell(s) of {column['title']!r} ({column['width']} px), widest"
                f" {column['widest']} px: {column['text'][:60]!r}"
            )
    return found


def tables(page, timeout: float) -> list[dict]:
    """Every table of the page, its expanders opened and each tab in turn (a table has no layout until it shows)."""
    from tests.browser import settle

    closed = page.locator(CLOSED)
    while closed.count():
        closed.first.click()
        settle(page, timeout)  # an expander may rerun the page when it opens (the studio's assign form)
    found = _laid_out(page, timeout)
    tabs = page.locator(TABS)
    for index in range(tabs.count()):
        if tabs.nth(index).get_attribute("aria-selected") == "true":
            continue
        tabs.nth(index).click()
        found += _laid_out(page, timeout)
    return found


def _laid_out(page, timeout: float) -> list[dict]:
    """``READ`` once every table on screen is laid out (again, if a rerun began in between)."""
    while True:
        page.wait_for_function(READY, polling="raf", timeout=timeout)
        if (found := page.evaluate(READ)) is not None:
            return found
