;;; drive.el --- Drives eglot over the real EdgeKit server, as an Emacs user's set-up has it  -*- lexical-binding: t -*-
;; Run by test/unit/lsp/emacs.test.ts:
;;   emacs --batch -Q -l test/emacs/drive.el
;; with EDGEKIT_CONFIG (the ```elisp block of docs/editors.md, written to a file), EDGEKIT_DIR (the four documents) and
;; `edgekit-language-server' on PATH. Prints what it saw as JSON lines on stdout ({"event": ...}) and exits; every wait polls
;; with a deadline, and a watchdog ends Emacs when the whole run takes too long.

(load (expand-file-name "common.el" (file-name-directory (or load-file-name buffer-file-name))) nil t)

;; The whole run must end well before the test's own time-out, whatever hangs.
(run-at-time 45 nil (lambda () (edgekit-emit "error" :message "drive.el: watchdog after 45 s") (kill-emacs 3)))

(defun edgekit-idle ()
  "Fire the idle timers, as Emacs does once the user stops typing (batch mode is never idle): eglot's didChange, flymake's check."
  (dolist (timer (copy-sequence timer-idle-list)) (timer-event-handler timer)))

(defvar edgekit-dir (file-name-as-directory (getenv "EDGEKIT_DIR")))

(defun edgekit-open (name)
  "Visit NAME as a user would (find-file, then the command loop's post-command-hook), wait for its diagnostics."
  (find-file (expand-file-name name edgekit-dir))
  ;; `eglot-ensure' (the documented hook) connects from `post-command-hook', which the batch mode has no command loop to run.
  (run-hooks 'post-command-hook)
  ;; And redisplay's hook, where flymake starts checking a buffer that was not yet shown when its mode came on.
  (run-hooks 'window-configuration-change-hook)
  (unless (edgekit-wait (lambda () (bound-and-true-p eglot--managed-mode)) 15)
    (error "eglot did not manage %s" name))
  (let ((diags (edgekit-wait (lambda () (flymake-diagnostics)) 10)))
    (edgekit-emit "diagnostics" :file name :mode (symbol-name major-mode)
                  :languageId (eglot--language-id (eglot-current-server))
                  :codes (vconcat (mapcar (lambda (d) (or (plist-get (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)) :code) "?")) diags))
                  :messages (vconcat (mapcar #'flymake-diagnostic-text diags)))))

(defun edgekit-goto (line character)
  "Point at the 0-based LINE and CHARACTER."
  (goto-char (point-min))
  (forward-line line)
  (forward-char character))

(condition-case err
    (progn
      (load (getenv "EDGEKIT_CONFIG") nil t)
      (require 'eglot)
      (edgekit-emit "versions" :emacs emacs-version
                    :eglot (let ((lib (locate-library "eglot"))) (and lib (file-name-nondirectory (directory-file-name (file-name-directory lib)))))
                    :modes (vconcat (mapcar (lambda (f) (let ((m (assoc-default f auto-mode-alist #'string-match))) (if m (symbol-name m) "")))
                                            (split-string (or (getenv "EDGEKIT_NAMES") "") ",")))
                    :plainJsonMode (symbol-name (assoc-default "plain.json" auto-mode-alist #'string-match)))
      (dolist (name '("bad.logpush.json" "bad.rpc.json" "bad.ruleset.json" "bad.filter.json")) (edgekit-open name))

      ;; In the filter (the current buffer): completion in the misspelt value through eglot's `completion-at-point' function
      ;; and its table, with the text from the start of the symbol to point as what was typed: right after the opening quote
      ;; (nothing typed), and after "Client.
      (dolist (at '(20 26))
        (edgekit-goto 1 at)
        (let* ((capf (eglot-completion-at-point))
               (typed (and capf (buffer-substring-no-properties (nth 0 capf) (point)))))
          (edgekit-emit "completion" :typed typed :labels (vconcat (and capf (all-completions typed (nth 2 capf)))))))

      ;; Hover on the misspelt value, as eldoc asks for it, rendered by eglot.
      (edgekit-goto 1 24)
      (let ((hover (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover (eglot--TextDocumentPositionParams))))
        (edgekit-emit "hover" :text (if hover (eglot--hover-info (plist-get hover :contents)) "")))

      ;; The quick fixes for line 2's diagnostic (eglot sends flymake's diagnostics of the region), the first one applied the
      ;; way `eglot-code-actions' applies a chosen action.
      (edgekit-goto 1 0)
      (let* ((actions (eglot-code-actions (line-beginning-position) (line-end-position) "quickfix"))
             (chosen (or (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions) (car actions))))
        (when chosen (eglot--apply-workspace-edit (plist-get chosen :edit)))
        (edgekit-emit "quickfix" :titles (vconcat (mapcar (lambda (a) (plist-get a :title)) actions))
                      :applied (and chosen (plist-get chosen :title))
                      :text (buffer-substring-no-properties (point-min) (point-max))))
      ;; The server re-checks the edited buffer: its diagnostics go away.
      (edgekit-emit "afterFix" :diagnostics (if (edgekit-wait (lambda () (edgekit-idle) (null (flymake-diagnostics))) 10) 0
                                              (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))))
      (edgekit-emit "done"))
  (error (edgekit-emit "error" :message (error-message-string err))))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(kill-emacs 0)
