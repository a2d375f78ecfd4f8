# Sourced by the docs tests that look at the site in headless Chromium: finds the browser, or exits 77 (CTest's
# SKIP_RETURN_CODE) saying why, and defines how to run it.
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || command -v chrome-headless-shell || true)
if [ -z "$browser" ]; then
    echo "SKIPPED: no Chromium here (apt-get install chromium), so the site was not looked at"
    exit 77
fi

# headless <chromium options> <url>: one headless run, JavaScript given time to finish (MathJax, the search).
headless() {
    # --no-sandbox: CI and containers run as root, where Chromium's sandbox refuses to start.
    # --disable-dev-shm-usage: containers often have a tiny /dev/shm.
    "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --window-size=1280,900 \
        --virtual-time-budget=8000 "$@" 2>/dev/null
}
