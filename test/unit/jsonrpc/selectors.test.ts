// The known contract functions (server/src/core/rules/jsonrpc/selectors.ts): every selector is keccak256 of its signature, as
// ethers computes it, and a call's data is read back as the contract's ABI decoder would read its head words (its dynamic
// arguments: callDataTail.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AbiCoder, id, Interface } from 'ethers';
import { callMarkdown, decodeCall, knownCall, KNOWN_FUNCTIONS } from '../../../server/src/core/rules/jsonrpc/selectors';

test('every selector is the first 4 bytes of keccak256 of its signature, and no two functions share one', () => {
  for (const k of KNOWN_FUNCTIONS) assert.equal(k.selector, id(k.signature).slice(0, 10), k.signature);
  assert.equal(new Set(KNOWN_FUNCTIONS.map((k) => k.selector)).size, KNOWN_FUNCTIONS.length);
});

test('data encoded by ethers decodes to the same values: addresses, amounts, bools, bytes4/bytes32, a dynamic argument\'s value', () => {
  const to = '0x00000000219ab540356cBB839Cbe05303d7705Fa';
  const transfer = new Interface(['function transfer(address to, uint256 amount)']).encodeFunctionData('transfer', [to, 1_500_000n]);
  const c = decodeCall(transfer)!;
  assert.equal(c.fn.signature, 'transfer(address,uint256)');
  assert.deepEqual(c.args.map((a) => a.value), [to.toLowerCase(), '1,500,000 (0x16e360)']);
  assert.equal(c.shortBy, 0);
  const approval = new Interface(['function setApprovalForAll(address operator, bool approved)']).encodeFunctionData('setApprovalForAll', [to, true]);
  assert.deepEqual(decodeCall(approval)!.args.map((a) => a.value), [to.toLowerCase(), 'true']);
  const iface = new Interface(['function supportsInterface(bytes4 interfaceId)']).encodeFunctionData('supportsInterface', ['0x80ac58cd']);
  assert.deepEqual(decodeCall(iface)!.args.map((a) => a.value), ['0x80ac58cd']);
  const sig = new Interface(['function isValidSignature(bytes32 hash, bytes signature)']).encodeFunctionData('isValidSignature', [id('x'), '0x1234']);
  assert.deepEqual(decodeCall(sig)!.args.map((a) => a.value), [id('x'), '0x1234 (2 bytes)']);
  // Upper case hex and a selector in capitals decode too (the checker flags a "0X" prefix on its own).
  assert.equal(decodeCall(`0x${transfer.slice(2).toUpperCase()}`)!.fn.signature, 'transfer(address,uint256)');
});

test('short data: the missing arguments and bytes are said; extra data is not a problem (the decoder ignores it)', () => {
  const word = AbiCoder.defaultAbiCoder().encode(['address'], ['0x00000000219ab540356cBB839Cbe05303d7705Fa']).slice(2);
  const short = decodeCall(`0xa9059cbb${word}`)!;
  assert.equal(short.shortBy, 32);
  assert.equal(short.args[1].value, undefined);
  assert.match(callMarkdown(short), /`amount` \(uint256\): _missing: the data ends before it_/);
  assert.equal(decodeCall(`0x70a08231${word}${'00'.repeat(40)}`)!.shortBy, 0);
  assert.equal(decodeCall('0x18160ddd')!.shortBy, 0, 'no arguments');
  assert.equal(decodeCall(`0xa9059cbb${'0'.repeat(63)}`), undefined, 'not whole bytes: the checker says so');
  assert.equal(decodeCall('0xdeadbeef'), undefined, 'an unknown selector');
  assert.equal(decodeCall('0x1234'), undefined);
});

test('values that do not fit their type are said to be so', () => {
  const dirty = decodeCall(`0x70a08231${'f'.repeat(24)}${'1'.repeat(40)}`)!;
  assert.match(dirty.args[0].value!, /not a clean address/);
  assert.equal(decodeCall(`0xa22cb465${'0'.repeat(64)}${'0'.repeat(63)}2`)!.args[1].value, 'not a bool (0x2)');
});

test('a bytes4 with non-zero bytes after its 4 is not clean (the ABI decoder reverts on it), as a dirty address or bool', () => {
  const clean = decodeCall(`0x01ffc9a780ac58cd${'0'.repeat(56)}`)!;
  assert.equal(clean.args[0].value, '0x80ac58cd');
  const dirty = decodeCall(`0x01ffc9a780ac58cd${'0'.repeat(55)}1`)!;
  assert.equal(dirty.args[0].value, '0x80ac58cd (not a clean bytes4: its low 28 bytes are not zero)');
});

test('knownCall: the function and the shortfall of the head words; without reading the head, whole data is taken as it is', () => {
  assert.deepEqual(knownCall(`0xa9059cbb${'0'.repeat(64)}`), { fn: KNOWN_FUNCTIONS[0], shortBy: 32 });
  assert.equal(knownCall(`0xa9059cbb${'z'.repeat(128)}`), undefined, 'not hex');
  assert.equal(knownCall(`0xa9059cbb${'z'.repeat(128)}`, false)!.shortBy, 0, 'whole: the digits are the checker\'s');
  assert.equal(knownCall(`0xa9059cbb${'z'.repeat(64)}`, false), undefined, 'short and not hex: no warning on top of invalid-data');
  assert.equal(knownCall('0xA9059CBB')!.shortBy, 64, 'the selector in capitals');
});

test('the hover tells an argument the data ends inside from one it ends before', () => {
  const md = callMarkdown(decodeCall(`0xa9059cbb${'0'.repeat(24)}${'ab'.repeat(20)}${'00'.repeat(10)}`)!);
  assert.match(md, /`amount` \(uint256\): _cut: the data ends 10 of its 32 bytes in_/);
  assert.match(callMarkdown(decodeCall('0x70a08231')!), /`owner` \(address\): _missing: the data ends before it_/);
});

test('the approval functions of ERC-721 / ERC-1155 name their arguments as the standards do (the hover shows these names)', () => {
  // EIP-721: isApprovedForAll(address _owner, address _operator), setApprovalForAll(address _operator, bool _approved).
  const names = (sig: string) => KNOWN_FUNCTIONS.find((k) => k.signature === sig)!.args.map((a) => `${a.type} ${a.name}`);
  assert.deepEqual(names('isApprovedForAll(address,address)'), ['address owner', 'address operator']);
  assert.deepEqual(names('setApprovalForAll(address,bool)'), ['address operator', 'bool approved']);
  const data = new Interface(['function isApprovedForAll(address owner, address operator)']).encodeFunctionData('isApprovedForAll',
    ['0x00000000219ab540356cBB839Cbe05303d7705Fa', '0x0000000000000000000000000000000000000001']);
  assert.match(callMarkdown(decodeCall(data)!), /operator/);
});
