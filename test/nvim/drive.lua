-- Drives Neovim's built-in LSP client (0.7 API: vim.lsp.start_client + buf_attach_client) over the real EdgeKit server, with
-- "json" as the filetype of every document, as a Neovim user's setup has it: the client is started and attached by the first ```lua
-- block of docs/editors.md ($EDGEKIT_CONFIG, run as it is, with `edgekit-language-server` on PATH). Writes what it saw as JSON to
-- $EDGEKIT_OUT and quits. Run by test/unit/lsp/neovim.test.ts:  nvim --headless --clean -c "luafile test/nvim/drive.lua"
local out, dir = os.getenv('EDGEKIT_OUT'), os.getenv('EDGEKIT_DIR')
local results = { diagnostics = {}, errors = {} }

local function finish()
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(results))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  dofile(os.getenv('EDGEKIT_CONFIG'))

  local function open(name)
    vim.cmd('edit ' .. dir .. '/' .. name)
    local buf = vim.api.nvim_get_current_buf()
    results.filetypes = results.filetypes or {}
    results.filetypes[name] = vim.bo[buf].filetype
    -- The configuration's autocmd started a client for the buffer; it is listed once initialized.
    assert(vim.wait(10000, function() return next(vim.lsp.buf_get_clients(buf)) ~= nil end, 20), 'the configuration attached no client to ' .. name)
    -- Pushed diagnostics arrive as an event; vim.wait runs the event loop until they do (10 s at most).
    vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
    local codes = {}
    for _, d in ipairs(vim.diagnostic.get(buf)) do table.insert(codes, d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?') end
    results.diagnostics[name] = codes
    return buf
  end

  for _, name in ipairs({ 'bad.filter.json', 'bad.logpush.json', 'bad.rpc.json', 'bad.ruleset.json' }) do open(name) end

  -- Completion and hover in the filter, at the misspelt key's value.
  local buf = open('bad.filter.json')
  local pos = { line = 1, character = 12 }
  local comp = vim.lsp.buf_request_sync(buf, 'textDocument/completion', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos }, 10000)
  local items = 0
  for _, r in pairs(comp or {}) do
    local res = r.result or {}
    items = items + #(res.items or res)
  end
  results.completionItems = items
  local hov = vim.lsp.buf_request_sync(buf, 'textDocument/hover', { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 1, character = 24 } }, 10000)
  for _, r in pairs(hov or {}) do if r.result then results.hover = r.result.contents.value or r.result.contents end end

  -- A quick fix applied: the code actions for the diagnostic on line 2, the first one's edit applied to the buffer.
  local line_diags = vim.lsp.diagnostic.get_line_diagnostics(buf, 1)
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) }, range = line_diags[1].range, context = { diagnostics = line_diags },
  }, 10000)
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      if not results.fixTitle then
        results.fixTitle = a.title
        vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
      end
    end
  end
  results.textAfterFix = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  -- Smart selection inside the ruleset's expression (Neovim 0.7 has no command for it; a plugin or a newer Neovim sends this request).
  local rbuf = open('bad.ruleset.json')
  local line = vim.api.nvim_buf_get_lines(rbuf, 2, 3, false)[1]
  local sel = vim.lsp.buf_request_sync(rbuf, 'textDocument/selectionRange', {
    textDocument = { uri = vim.uri_from_bufnr(rbuf) }, positions = { { line = 2, character = line:find('hots', 1, true) - 1 } },
  }, 10000)
  results.selection = {}
  for _, r in pairs(sel or {}) do
    local range = r.result and r.result[1]
    while range and #results.selection < 3 do
      local s, e = range.range.start, range.range['end']
      if s.line == 2 and e.line == 2 then table.insert(results.selection, line:sub(s.character + 1, e.character)) end
      range = range.parent
    end
  end
  -- A quick fix after letters outside ASCII on the diagnostic's line: Neovim sends the diagnostic back with byte columns (rv27).
  local ubuf = open('utf8.filter.json')
  local udiags = vim.lsp.diagnostic.get_line_diagnostics(ubuf, 0)
  results.utf8FixTitles = {}
  if udiags[1] then
    local uactions = vim.lsp.buf_request_sync(ubuf, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(ubuf) }, range = udiags[1].range, context = { diagnostics = udiags },
    }, 10000)
    for _, r in pairs(uactions or {}) do for _, a in ipairs(r.result or {}) do table.insert(results.utf8FixTitles, a.title) end end
  end
  -- How many servers the configuration started for the four documents (one is what a user expects: one process, not one per file).
  results.clients = #vim.lsp.get_active_clients()
end)
if not ok then table.insert(results.errors, tostring(err)) end
finish()
