import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact } from '../../../client/src/http/redact';

test('redact masks every credential form EdgeKit handles', () => {
  const cases: [string, string][] = [
    ['Authorization: Bearer abc.def', 'Authorization: Bearer ***'],
    ['X-Auth-Key: 0123abcd', 'X-Auth-Key: ***'],
    ['X-Auth-Email: me@example.com', 'X-Auth-Email: ***'],
    ['s3://b/p?region=us-east-1&access-key-id=AKIA1&secret-access-key=SUPERSECRET', 's3://b/p?region=us-east-1&access-key-id=***&secret-access-key=***'],
    ['datadog://h?header_DD-API-KEY=k123&service=x', 'datadog://h?header_DD-API-KEY=***&service=x'],
    ['https://h/p?header_Authorization=Basic%20xyz', 'https://h/p?header_Authorization=***'],
    ['azure://c?sig=abcdef&sv=2020', 'azure://c?sig=***&sv=2020'],
    ['https://user:pass@host/x', 'https://***@host/x'],
  ];
  for (const [input, expected] of cases) assert.equal(redact(input), expected, input);
  assert.equal(redact('region=us-east-1 and nothing secret'), 'region=us-east-1 and nothing secret');
});
