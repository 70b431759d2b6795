import { describe, expect, it } from 'vitest';
import { parseWrk } from './support';

const REPORT = `Running 10s test @ http://127.0.0.1:3917/catalog/woman/
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.80ms  850.20us  21.03ms   91.21%
    Req/Sec     5.53k   245.11     5.83k    85.00%
  Latency Distribution
     50%  618.00us
     75%    5.90ms
     90%    6.33ms
     99%    1.22s
  55066 requests in 10.00s, 1.63GB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 4
Requests/sec:   5506.31
Transfer/sec:    166.63MB
`;

describe('parseWrk', () => {
  it('reads the rate, the percentiles in their units and every kind of error', () => {
    expect(parseWrk(REPORT)).toEqual({ requests: 55066, rps: 5506, p50: 0.6, p99: 1220, errors: 9 });
  });
  it('counts no errors when wrk reports none', () => {
    const clean = REPORT.replace(/ {2}Socket errors.*\n {2}Non-2xx.*\n/, '');
    expect(parseWrk(clean).errors).toBe(0);
  });
});
