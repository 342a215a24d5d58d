// The jsonrpc-request kind: gateway JSON-RPC requests (a single request or a batch).
import type { KindPlugin } from '../../types';
import { requestRule } from './rules';
import { complete, hover, inlayHints, lenses, signatureHelp } from './features';

export const jsonrpcPlugin: KindPlugin = {
  kind: 'jsonrpc-request',
  rules: [requestRule],
  complete: (doc, offset) => complete(doc, offset),
  hover: (doc, offset) => hover(doc, offset),
  signatureHelp: (doc, offset) => signatureHelp(doc, offset),
  inlayHints: (doc, range) => inlayHints(doc, range),
  lenses: (doc) => lenses(doc),
  // Not preferred: Fix all does not write a request nobody asked for.
  starter: {
    expected: 'a request object {"jsonrpc": "2.0", "method": …, "params": […], "id": 1}, or an array of them for a batch',
    title: 'Insert a request (eth_blockNumber)',
    text: '{\n  "jsonrpc": "2.0",\n  "method": "eth_blockNumber",\n  "params": [],\n  "id": 1\n}\n',
  },
};
