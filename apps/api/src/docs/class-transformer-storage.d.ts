// class-transformer 0.5 ships its metadata storage at `cjs/storage` but types it under `types/`:
// this maps the one to the other so `@Type(() => Cls)` can be read without a `require`.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
