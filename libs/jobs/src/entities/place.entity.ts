import { bigintMs } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A fixed site with a check-in radius. The jobs work creates this minimal table (jobs refer to
 * places by `placeUid`); the places work extends it with its actions.
 */
@Entity('places')
@Index('IDX_places_company', ['companyId'])
export class Place {
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  @Column({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'double precision', nullable: true })
  lat: number | null;

  @Column({ type: 'double precision', nullable: true })
  lng: number | null;

  /** Check-in radius in m; 0 = the company's default. */
  @Column({ type: 'integer', default: 0 })
  radius: number;

  @Column({ type: 'varchar', length: 500, default: '' })
  address: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  city: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  state: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  postalcode: string;

  @Column({ name: 'country_code', type: 'varchar', length: 2, default: '' })
  countryCode: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintMs })
  createdAt: number;
}
