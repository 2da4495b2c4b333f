// Applies the remembered theme and text size before the first paint (a classic script in <head>, so
// it runs before the page is drawn; the app itself loads later, as a module). The key and the values
// are those of src-renderer/state/appearance.ts; src-renderer/platform/appearance-root.ts applies
// later changes the same way.
(function () {
  var theme = 'system';
  var textSize = 'default';
  try {
    var stored = JSON.parse(window.localStorage.getItem('cairn.appearance') || '{}');
    if (stored.theme === 'light' || stored.theme === 'dark') theme = stored.theme;
    if (stored.textSize === 'small' || stored.textSize === 'large') textSize = stored.textSize;
  } catch {
    // Storage blocked or the value unreadable: the defaults.
  }
  document.documentElement.setAttribute('data-theme', theme);
  document.documentElement.setAttribute('data-text-size', textSize);
})();
