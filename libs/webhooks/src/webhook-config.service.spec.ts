import { maskHeaderValue } from './header-rules';
import { keepMaskedHeaders } from './webhook-config.service';

describe('keepMaskedHeaders', () => {
  const stored = { 'X-Token': 'secret-token-1234', 'X-Other': 'o' };

  it('keeps the stored value of a header sent back exactly as it was answered (masked), by name case-insensitively', () => {
    expect(keepMaskedHeaders({ 'x-token': maskHeaderValue('secret-token-1234') }, stored)).toEqual({ 'x-token': 'secret-token-1234' });
  });

  it('takes any other value as sent, and drops headers not sent', () => {
    expect(keepMaskedHeaders({ 'X-Token': 'fresh-value-9999', 'X-New': '****' }, stored)).toEqual({
      'X-Token': 'fresh-value-9999',
      'X-New': '****',
    });
  });

  it('stores masked-looking values as sent when nothing was stored', () => {
    expect(keepMaskedHeaders({ 'X-Token': '****1234' })).toEqual({ 'X-Token': '****1234' });
  });
});
