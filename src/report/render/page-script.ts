/**
 * The page's only script: turns each SVG <title> (which works without script, as the browser's own
 * tooltip) into a tooltip that follows the mouse at once and can be read by tests. No network, no timers.
 */
export const PAGE_SCRIPT = `
(function () {
  var tip = document.getElementById('tip');
  var titles = document.querySelectorAll('svg.timeline title');
  for (var i = 0; i < titles.length; i++) {
    var t = titles[i];
    t.parentNode.setAttribute('data-tip', t.textContent);
    t.parentNode.removeChild(t);
  }
  var current = null;
  function place(ev) {
    var pad = 14, w = tip.offsetWidth, h = tip.offsetHeight;
    var x = ev.clientX + pad, y = ev.clientY + pad;
    if (x + w > window.innerWidth - 4) x = Math.max(4, ev.clientX - w - pad);
    if (y + h > window.innerHeight - 4) y = Math.max(4, ev.clientY - h - pad);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  document.addEventListener('mousemove', function (ev) {
    var el = ev.target && ev.target.closest ? ev.target.closest('[data-tip]') : null;
    if (el !== current) {
      if (current) current.classList.remove('hover');
      current = el;
      if (el) {
        el.classList.add('hover');
        tip.textContent = el.getAttribute('data-tip');
        tip.hidden = false;
      } else {
        tip.hidden = true;
      }
    }
    if (el) place(ev);
  });
  document.addEventListener('mouseleave', function () {
    tip.hidden = true;
  });
})();
`;
