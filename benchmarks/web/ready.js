// Runs in every page before its own scripts. Sets window.__tti (a performance.now()
// time) once Voilà has shown the cells, every cell has run and every widget output holds a
// rendered widget. With progressive rendering Voilà puts a skeleton in every cell and removes it
// when the cell's result arrives, so the page is ready only after skeletons were seen and are gone.
(() => {
  let skeletons = false;
  const progressive = () => {
    const c = document.getElementById('jupyter-config-data');
    if (!c) return null;                                   // config not parsed yet
    const v = JSON.parse(c.textContent).progressiveRendering;
    return v === true || v === 'true';
  };
  const ready = () => {
    const rc = document.getElementById('rendered_cells');
    if (!rc || rc.style.display === 'none') return false;   // Voilà shows it by clearing this
    const p = progressive();
    if (p === null) return false;
    if (p && (!skeletons || document.querySelector('.voila-skeleton-container'))) return false;
    if (!p && document.querySelector('script[type="application/vnd.voila.cell-output+json"]')) return false;
    for (const panel of document.querySelectorAll('.jp-OutputArea-output.lm-Panel'))
      if (!panel.querySelector('.jupyter-widgets')) return false;
    return true;
  };
  // The page is checked at most once a frame: checking on every mutation cost a chapter's page
  // about 30 ms of main-thread time (a bare page far less), which the measurement then counted.
  let queued = false;
  const check = () => {
    queued = false;
    if (!skeletons && document.querySelector('.voila-skeleton-container')) skeletons = true;
    if (window.__tti === undefined && ready()) {
      window.__tti = performance.now();
      obs.disconnect();
    }
  };
  const obs = new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(check); }
  });
  obs.observe(document, {subtree: true, childList: true, attributes: true});
})();
