import { IsNumber, Max, Min } from 'class-validator';

/** A position in a request, degrees (WGS84): `lat` −90..90, `lng` −180..180, finite numbers. */
export class LatLngDto {
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  lat: number;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  lng: number;
}
