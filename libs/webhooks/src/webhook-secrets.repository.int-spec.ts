import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { WebhookSecretsRepository } from './webhook-secrets.repository';

describe('WebhookSecretsRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: WebhookSecretsRepository;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    repo = new WebhookSecretsRepository(ds);
  });
  afterAll(() => ds.destroy());

  it('stores the first secret once, rotates chaining the previous, per company', async () => {
    const { companyId: a } = await createIntCompany(ds);
    const { companyId: b } = await createIntCompany(ds);
    expect(await repo.find(a)).toBeUndefined();
    expect(await repo.rotate(a, 'whsec_x', 1)).toBe(false); // no row yet
    await repo.insertIfMissing(a, 'whsec_1', 10);
    await repo.insertIfMissing(a, 'whsec_other', 11); // the first wins
    expect(await repo.find(a)).toEqual({ secret: 'whsec_1', previousSecret: null, previousExpiresAt: null });
    expect(await repo.rotate(a, 'whsec_2', 500)).toBe(true);
    expect(await repo.rotate(a, 'whsec_3', 600)).toBe(true);
    expect(await repo.find(a)).toEqual({ secret: 'whsec_3', previousSecret: 'whsec_2', previousExpiresAt: 600 });
    expect(await repo.find(b)).toBeUndefined();
    await repo.insertIfMissing(b, 'whsec_b', 12);
    expect((await repo.find(b))!.secret).toBe('whsec_b');
    expect((await repo.find(a))!.secret).toBe('whsec_3');
  });
});
