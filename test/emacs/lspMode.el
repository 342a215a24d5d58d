;;; lspMode.el --- Drives lsp-mode's semantic tokens over the real EdgeKit server, as docs/editors.md's lsp-mode block sets it up  -*- lexical-binding: t -*-
;; Run by test/system/lsp/emacsLspMode.test.ts:
;;   emacs --batch -Q -l test/emacs/lspMode.el
;; with EDGEKIT_CONFIG (the ```elisp block under "## Emacs (lsp-mode)" in docs/editors.md, written to a file), EDGEKIT_DIR (the
;; documents, EDGEKIT_FILES names them) and `edgekit-language-server' on PATH. For each document: waits for lsp-mode's semantic
;; tokens, fontifies the buffer as redisplay would, and prints the runs of text that got an lsp-mode semantic face as JSON lines
;; ({"event": ...}). Every wait polls with a deadline; a watchdog ends Emacs when the whole run takes too long.

(load (expand-file-name "common.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

(run-at-time 45 nil (lambda () (edgekit-emit "error" :message "lspMode.el: watchdog after 45 s") (kill-emacs 3)))

(defvar edgekit-dir (file-name-as-directory (getenv "EDGEKIT_DIR")))

;; The test's own environment, not the user's set-up: lsp-mode's session file in the test folder, the folder known as the
;; project root (lsp-mode asks for it interactively otherwise), no prompts, no other servers offered.
(setq lsp-session-file (expand-file-name ".lsp-session" edgekit-dir)
      lsp-auto-guess-root nil
      lsp-restart 'ignore
      lsp-enable-suggest-server-download nil
      lsp-keep-workspace-alive nil
      lsp-log-io nil)

(defun edgekit-face-runs ()
  "The runs of text whose face is one of lsp-mode's semantic faces, as [TEXT FACE] pairs, in buffer order."
  (let ((pos (point-min)) (runs '()))
    (while (< pos (point-max))
      (let* ((next (next-single-property-change pos 'face nil (point-max)))
             (face (get-text-property pos 'face))
             (name (cond ((symbolp face) (and face (symbol-name face)))
                         ((consp face) (mapconcat (lambda (f) (if (symbolp f) (symbol-name f) "")) face " ")))))
        (when (and name (string-match-p "lsp-face-semhl" name))
          (push (vector (buffer-substring-no-properties pos next) name) runs))
        (setq pos next)))
    (vconcat (nreverse runs))))

(defun edgekit-tokens (name)
  "Visit NAME as a user would, wait for its semantic tokens, fontify it, print the runs lsp-mode coloured."
  (find-file (expand-file-name name edgekit-dir))
  ;; `lsp-deferred' (the documented hook) connects from `post-command-hook' / idle time, which batch mode does not run.
  (run-hooks 'post-command-hook)
  (run-hooks 'window-configuration-change-hook)
  (dolist (timer (copy-sequence timer-idle-list)) (timer-event-handler timer))
  (unless (edgekit-wait (lambda () (bound-and-true-p lsp-semantic-tokens-mode)) 20)
    (error "lsp-mode did not manage %s with semantic tokens (lsp-mode: %s, servers: %s, semanticTokensProvider: %s)" name (bound-and-true-p lsp-mode)
           (mapcar (lambda (w) (lsp--client-server-id (lsp--workspace-client w))) (bound-and-true-p lsp--buffer-workspaces))
           (and (bound-and-true-p lsp--buffer-workspaces) (lsp-feature? "textDocument/semanticTokens") t)))
  (unless (edgekit-wait (lambda () (plist-get lsp--semantic-tokens-cache :response)) 15)
    (error "no semantic tokens arrived for %s" name))
  ;; Batch Emacs has no redisplay and keeps font-lock-mode off (noninteractive): fontify the whole buffer as jit-lock would,
  ;; through the fontify function lsp-mode wraps.
  (font-lock-set-defaults)
  (funcall font-lock-fontify-region-function (point-min) (point-max) nil)
  (edgekit-emit "tokens" :file name :mode (symbol-name major-mode)
                :server (symbol-name (lsp--client-server-id (lsp--workspace-client (car lsp--buffer-workspaces))))
                :runs (edgekit-face-runs)))

(condition-case err
    (progn
      (load (getenv "EDGEKIT_CONFIG") nil t)
      (require 'lsp-mode)
      (lsp-workspace-folders-add (directory-file-name edgekit-dir))
      (edgekit-emit "versions" :emacs emacs-version
                    :lspMode (let ((lib (locate-library "lsp-mode"))) (and lib (file-name-nondirectory (directory-file-name (file-name-directory lib))))))
      (dolist (name (split-string (getenv "EDGEKIT_FILES") ",")) (edgekit-tokens name))
      (edgekit-emit "done"))
  (error (edgekit-emit "error" :message (error-message-string err))))
(kill-emacs 0)
