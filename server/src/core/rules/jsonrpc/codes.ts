import type { CodeTable } from '../../codes';

export const JSONRPC_CODES: CodeTable = {
  // request envelope
  'jsonrpc/missing-version': { severity: 'error', description: 'A request has no "jsonrpc" member; the gateway speaks JSON-RPC "2.0".' },
  'jsonrpc/wrong-version': { severity: 'error', description: 'The "jsonrpc" member is not "2.0".' },
  'jsonrpc/missing-method': { severity: 'error', description: 'A request has no "method" member.' },
  // JSON-RPC 2.0 section 4.1: a request without "id" is a valid notification; the server does not answer it, not even with an error.
  'jsonrpc/missing-id': { severity: 'warning', description: 'A request has no "id": a notification, valid JSON-RPC, which gets no response (an error in its method or params goes unreported).' },
  // JSON-RPC 2.0 section 4: the id MUST be a String, Number or NULL; "SHOULD NOT" be null (footnote 1: responses use null for an
  // unknown id). Valid, and answered, so a warning.
  'jsonrpc/null-id': { severity: 'warning', description: 'An "id" of null; JSON-RPC allows but discourages it, since a response to a request whose id could not be read carries null too.' },
  'jsonrpc/string-id': { severity: 'warning', description: 'A string id; the gateway documents integer ids.' },
  // JSON-RPC 2.0 puts no bound on a Number id; JavaScript readers (JSON.parse) round one past 2^53 (docs/architecture.md).
  'jsonrpc/inexact-id': { severity: 'warning', description: 'An integer id past 2^53 that a reader using doubles (JavaScript\'s JSON.parse) reads as another number, so a response echoed by one does not match the request.' },
  'jsonrpc/duplicate-id': { severity: 'warning', description: 'Two requests of a batch share an id, so their responses cannot be told apart.' },
  // method
  'jsonrpc/unsupported-method': { severity: 'error', description: 'A method the gateway refuses with HTTP 403.' },
  'jsonrpc/unknown-method': { severity: 'error', description: 'A method the gateway does not know; like an unsupported one, it is refused with HTTP 403.' },
  // params (reported from checkParamValues)
  'jsonrpc/params-not-array': { severity: 'error', description: 'params is not an array; the gateway methods take positional params.' },
  'jsonrpc/missing-param': { severity: 'error', description: 'A required param (or member of a param object) is missing.' },
  'jsonrpc/extra-param': { severity: 'error', description: 'More params than the method takes.' },
  'jsonrpc/invalid-param': { severity: 'error', description: 'A param has the wrong type or shape.' },
  'jsonrpc/invalid-quantity': { severity: 'error', description: 'A QUANTITY that is not "0x" + hex digits without leading zeros.' },
  'jsonrpc/invalid-address': { severity: 'error', description: 'An address that is not 20 bytes (0x + 40 hex digits).' },
  'jsonrpc/invalid-hash': { severity: 'error', description: 'A hash that is not 32 bytes (0x + 64 hex digits).' },
  'jsonrpc/invalid-data': { severity: 'error', description: 'Hex data that is not "0x" + an even number of hex digits (or too long).' },
  'jsonrpc/invalid-block': { severity: 'error', description: 'A block that is neither a number nor one of the tags latest, earliest, pending, safe, finalized.' },
  'jsonrpc/unknown-key': { severity: 'error', description: 'A member that a call object, log filter or trace filter does not define.' },
  'jsonrpc/call-data-short': { severity: 'warning', description: 'A call\'s data starts with the selector of a known function (ERC-20, ERC-721, …) but is too short for its arguments; the contract reverts decoding them.' },
  'jsonrpc/call-data-bad-offset': { severity: 'warning', description: 'A call\'s data for a known function has a dynamic argument (bytes, an array) whose offset or length points past the end of the data, so the contract reverts decoding it; or whose offset is not a multiple of 32 or points into the head words, which no ABI encoder writes.' },
  'jsonrpc/conflicting-keys': { severity: 'error', description: 'Members that exclude each other (blockHash with a block range; data and input differing).' },
  // gateway limits
  'jsonrpc/block-range-reversed': { severity: 'error', description: 'fromBlock is after toBlock.' },
  'jsonrpc/block-range-too-large': { severity: 'error', description: 'eth_getLogs or trace_filter over more than 800 blocks.' },
  'jsonrpc/block-count-too-large': { severity: 'error', description: 'eth_feeHistory with a block count over 10.' },
  'jsonrpc/trace-count-too-large': { severity: 'error', description: 'trace_filter with a count over 200.' },
  'jsonrpc/range-from-genesis': { severity: 'warning', description: 'A block range from the genesis block (0, "earliest", or trace_filter\'s default) to a head tag: the whole chain, over the 800-block limit on any chain past block 799.' },
  'jsonrpc/address-checksum': { severity: 'warning', description: 'A mixed-case address whose EIP-55 checksum does not match: a character is likely mistyped (the gateway takes any case; ethers refuses it).' },
  'jsonrpc/range-checked-at-runtime': { severity: 'information', description: 'A block range given by tags; the gateway checks its limit at run time.' },
};
