import { signingSecrets } from './webhook-secrets.service';

describe('signingSecrets', () => {
  const now = 1_800_000_000_000;

  it('signs with the only secret when none was rotated out', () => {
    expect(signingSecrets({ secret: 'whsec_new', previousSecret: null, previousExpiresAt: null }, now)).toEqual(['whsec_new']);
  });

  it('signs with the newest, then the previous one, while the overlap lasts', () => {
    expect(signingSecrets({ secret: 'whsec_new', previousSecret: 'whsec_old', previousExpiresAt: now + 1 }, now)).toEqual([
      'whsec_new',
      'whsec_old',
    ]);
  });

  it('drops the previous secret from the moment its overlap ends', () => {
    expect(signingSecrets({ secret: 'whsec_new', previousSecret: 'whsec_old', previousExpiresAt: now }, now)).toEqual(['whsec_new']);
    expect(signingSecrets({ secret: 'whsec_new', previousSecret: 'whsec_old', previousExpiresAt: null }, now)).toEqual(['whsec_new']);
  });
});
