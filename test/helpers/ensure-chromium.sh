#!/usr/bin/env bash
# Run by `npm test` first (the pretest script): the /docs test drives Debian's chromium at
# /usr/bin/chromium, never a browser downloaded by a test tool. Installs it where this machine
# can (root with apt-get, as on the project's machines and CI); elsewhere says how, and the /docs
# test fails naming the missing browser while every other test still runs. CHROMIUM_PATH, when
# set, names a browser already installed (GitHub's runners have Google Chrome): nothing to install.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] || echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: the /docs test will fail." >&2
  exit 0
fi
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the /docs browser test (apt-get install chromium)..."
  # A failed install must not keep the other tests from running.
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || true
fi
[ -x /usr/bin/chromium ] || echo "The /docs test needs Debian's chromium at /usr/bin/chromium: run 'sudo apt-get install chromium'." >&2
