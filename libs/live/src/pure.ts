/**
 * The Nest-free part of the live lib (`@app/live/pure`): the member state and the position record,
 * which other libs reuse (`@app/locations`' `/v1/locations` answers the same `state`) without loading
 * the stream's services.
 */
export * from './positions/position-record';
