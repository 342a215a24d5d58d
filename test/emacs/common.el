;;; common.el --- What drive.el (eglot) and lspMode.el (lsp-mode) share: Debian's elpa packages, JSON lines, polled waits  -*- lexical-binding: t -*-

(require 'package)
;; -Q skips Debian's site start-up, which is what puts its elpa-* packages (elpa-eglot, elpa-lsp-mode) where `package-initialize'
;; finds them.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'json)
(require 'subr-x)

(defun edgekit-emit (event &rest props)
  "Print one JSON line: EVENT and the plist PROPS."
  (princ (concat (json-encode (append (list :event event) props)) "\n")))

(defun edgekit-wait (pred seconds)
  "Run the event loop until PRED returns non-nil (its value) or SECONDS pass (nil)."
  (let ((deadline (+ (float-time) seconds)) (v nil))
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))
