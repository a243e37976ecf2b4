import { isClosedConnectionError } from './queue.module';

describe('isClosedConnectionError', () => {
  it('knows the closed connection on one server and as a Cluster wraps it', () => {
    expect(isClosedConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isClosedConnectionError(new Error('Too many Cluster redirections. Last error: Error: Connection is closed.'))).toBe(true);
  });

  it('does not take other errors for it', () => {
    expect(isClosedConnectionError(new Error('Too many Cluster redirections. Last error: ReplyError: MOVED 3112 127.0.0.1:12244'))).toBe(false);
    expect(isClosedConnectionError(new Error('NOSCRIPT No matching script. Please use EVAL.'))).toBe(false);
    expect(isClosedConnectionError(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toBe(false);
  });
});
